// A zip of deflated members written in one pass, in the order they are added (an Inspect log's
// layout): each member compressed and its CRC taken by zlib as it is added, the output written in
// large blocks. It replaced yazl for the logs: yazl took every CRC in JavaScript and compressed each
// member through a stream in zlib's thread pool, whose set-up per member cost more than deflating
// a sample (thousands of small members: most of an export's time). zlib's one-shot call is cheapest.
// Zip64 records (APPNOTE 4.3.14, 4.5.3) are written only when the archive outgrows the 32-bit
// offsets or 65,535 members, as Python's zipfile (Inspect's own writer) does.
import type { FileHandle } from 'node:fs/promises';
import { crc32, deflateRawSync } from 'node:zlib';

/** Inspect's recorder's level (log/_recorders/eval.py: ZIP_DEFLATED, compresslevel 5). */
const LEVEL = 5;
/** Output is written once this much has gathered. */
const BLOCK = 1 << 20;
const U16 = 0xffff;
const U32 = 0xffffffff;
/** UTF-8 names (general purpose bit 11). */
const FLAGS = 0x0800;
const DEFLATE = 8;
/** Made by Unix (3), spec 4.5; a regular file readable by all (0100644) as its external attributes. */
const MADE_BY = (3 << 8) | 45;
const EXTERNAL = (0o100644 << 16) >>> 0;

interface Entry {
  name: Buffer;
  crc: number;
  size: number;
  csize: number;
  offset: number;
}

/** The DOS date and time of `d` (local time, as zip readers show it; 1980 at the earliest). */
function dosStamp(d: Date): { time: number; date: number } {
  const year = Math.max(1980, d.getFullYear());
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1),
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

export class DeflatedZipWriter {
  private readonly stamp: { time: number; date: number };
  private readonly entries: Entry[] = [];
  private block: Buffer[] = [];
  private blockBytes = 0;
  /** Bytes of the archive so far (written and in the block). */
  private offset = 0;
  private position = 0;

  constructor(
    private readonly out: FileHandle,
    mtime: Date,
    /** forceZip64: Zip64 records whatever the size (tests: the > 4 GiB layout without writing 4 GiB). */
    private readonly opts: { forceZip64?: boolean } = {},
  ) {
    this.stamp = dosStamp(mtime);
  }

  /** Adds a member (compressed now; written out once a block has gathered). */
  async add(name: string, data: Buffer): Promise<void> {
    if (data.length >= U32) throw new Error(`zip member ${name} is ${data.length} bytes: more than a member may hold (4 GiB)`);
    const compressed = deflateRawSync(data, { level: LEVEL });
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(FLAGS, 6);
    header.writeUInt16LE(DEFLATE, 8);
    header.writeUInt16LE(this.stamp.time, 10);
    header.writeUInt16LE(this.stamp.date, 12);
    header.writeUInt32LE(crc, 14);
    header.writeUInt32LE(compressed.length, 18);
    header.writeUInt32LE(data.length, 22);
    header.writeUInt16LE(nameBytes.length, 26);
    this.entries.push({ name: nameBytes, crc, size: data.length, csize: compressed.length, offset: this.offset });
    this.push(header, nameBytes, compressed);
    if (this.blockBytes >= BLOCK) await this.flush();
  }

  /** Writes the central directory and its end. */
  async finish(): Promise<void> {
    const cdOffset = this.offset;
    for (const e of this.entries) this.centralEntry(e);
    const cdSize = this.offset - cdOffset;
    const count = this.entries.length;
    const zip64 = this.opts.forceZip64 === true || count >= U16 || cdOffset >= U32 || cdSize >= U32;
    if (zip64) {
      const eocd64Offset = this.offset;
      const rec = Buffer.alloc(56);
      rec.writeUInt32LE(0x06064b50, 0);
      rec.writeBigUInt64LE(44n, 4);
      rec.writeUInt16LE(MADE_BY, 12);
      rec.writeUInt16LE(45, 14);
      rec.writeBigUInt64LE(BigInt(count), 24);
      rec.writeBigUInt64LE(BigInt(count), 32);
      rec.writeBigUInt64LE(BigInt(cdSize), 40);
      rec.writeBigUInt64LE(BigInt(cdOffset), 48);
      const locator = Buffer.alloc(20);
      locator.writeUInt32LE(0x07064b50, 0);
      locator.writeBigUInt64LE(BigInt(eocd64Offset), 8);
      locator.writeUInt32LE(1, 16);
      this.push(rec, locator);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(zip64 ? U16 : count, 8);
    end.writeUInt16LE(zip64 ? U16 : count, 10);
    end.writeUInt32LE(zip64 ? U32 : cdSize, 12);
    end.writeUInt32LE(zip64 ? U32 : cdOffset, 16);
    this.push(end);
    await this.flush();
  }

  private centralEntry(e: Entry): void {
    const zip64 = this.opts.forceZip64 === true || e.offset >= U32;
    const extra = zip64 ? Buffer.alloc(12) : Buffer.alloc(0);
    if (zip64) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(8, 2);
      extra.writeBigUInt64LE(BigInt(e.offset), 4);
    }
    const h = Buffer.alloc(46);
    h.writeUInt32LE(0x02014b50, 0);
    h.writeUInt16LE(MADE_BY, 4);
    h.writeUInt16LE(zip64 ? 45 : 20, 6);
    h.writeUInt16LE(FLAGS, 8);
    h.writeUInt16LE(DEFLATE, 10);
    h.writeUInt16LE(this.stamp.time, 12);
    h.writeUInt16LE(this.stamp.date, 14);
    h.writeUInt32LE(e.crc, 16);
    h.writeUInt32LE(e.csize, 20);
    h.writeUInt32LE(e.size, 24);
    h.writeUInt16LE(e.name.length, 28);
    h.writeUInt16LE(extra.length, 30);
    h.writeUInt32LE(EXTERNAL, 38);
    h.writeUInt32LE(zip64 ? U32 : e.offset, 42);
    this.push(h, e.name, extra);
  }

  private push(...parts: Buffer[]): void {
    for (const p of parts) {
      this.block.push(p);
      this.blockBytes += p.length;
      this.offset += p.length;
    }
  }

  private async flush(): Promise<void> {
    if (this.blockBytes === 0) return;
    const data = Buffer.concat(this.block, this.blockBytes);
    this.block = [];
    this.blockBytes = 0;
    for (let done = 0; done < data.length;) {
      const { bytesWritten } = await this.out.write(data, done, data.length - done, this.position);
      done += bytesWritten;
      this.position += bytesWritten;
    }
  }
}
