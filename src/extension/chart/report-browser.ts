// Open in Browser and Download for an exported report where VS Code runs in a browser or remotely:
// one loopback server (core/report/report-server.ts), started on first use and closed with the
// window; the editor forwards its port (asExternalUri: code-server's /proxy/<port>/, a remote
// window's port forwarding) and the person's browser opens the page or the .zip.
import * as vscode from 'vscode';
import { ReportServer, type SharedReport } from '../../core/report/report-server';

export class ReportBrowser implements vscode.Disposable {
  private server: Promise<ReportServer> | undefined;
  private readonly shared = new Map<string, SharedReport>();

  private async share(folder: string): Promise<SharedReport> {
    // A server that failed to start is tried again next time.
    this.server ??= ReportServer.start().catch((err: unknown) => {
      this.server = undefined;
      throw err;
    });
    const server = await this.server;
    let urls = this.shared.get(folder);
    if (!urls) {
      urls = server.share(folder);
      this.shared.set(folder, urls);
    }
    return urls;
  }

  private async open(url: string): Promise<boolean> {
    const external = await vscode.env.asExternalUri(vscode.Uri.parse(url));
    return vscode.env.openExternal(external);
  }

  /** The report page in the person's browser. */
  async openPage(folder: string): Promise<boolean> {
    return this.open((await this.share(folder)).page);
  }

  /** The report's folder as one .zip, saved by the person's browser. */
  async download(folder: string): Promise<boolean> {
    return this.open((await this.share(folder)).zip);
  }

  dispose(): void {
    void this.server?.then((s) => s.close());
    this.server = undefined;
    this.shared.clear();
  }
}
