// The call timeline above the conversation: one bar per call, as wide as its time (or tokens),
// coloured by what the call did (wrote a file, ran another tool, only answered, failed); a click (or Enter on the focused bar) scrolls to the call. One
// tab stop: the arrow keys move along the bars.
import * as l10n from '@vscode/l10n';
import type { TranscriptCall } from '../src/shared/transcript-schema';
import { el } from './dom';
import { callMeasure, timelineLayout, type TimelineMeasure } from './timeline-layout';
import { callFigures } from './transcript-format';

export class Timeline {
  readonly root = el('div', { class: 'timeline', role: 'toolbar', 'aria-label': l10n.t('Calls, one bar each: click to go to the call') });
  private readonly strip = el('div', { class: 'timeline-strip' });
  private bars: HTMLButtonElement[] = [];
  private calls: readonly TranscriptCall[] = [];
  private focused = 0;

  constructor(
    private measure: TimelineMeasure,
    private readonly onPick: (index: number) => void,
  ) {
    this.root.append(this.strip);
    new ResizeObserver(() => this.layout()).observe(this.root);
    this.root.addEventListener('keydown', (e) => {
      const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: -Infinity, End: Infinity }[e.key];
      if (step === undefined || this.bars.length === 0) return;
      e.preventDefault();
      this.focus(Math.max(0, Math.min(this.bars.length - 1, this.focused + step)));
    });
  }

  /** `writers`: the calls that wrote a file (their bars have a colour of their own). */
  setCalls(calls: readonly TranscriptCall[], writers: ReadonlySet<number>): void {
    this.calls = calls;
    this.bars = calls.map((c, i) => {
      const kind = c.error || c.refused ? 'bad' : c.side ? 'side' : writers.has(c.call) ? 'write' : c.toolCalls.length ? 'tool' : 'text';
      const bar = el('button', {
        type: 'button',
        class: `bar bar-${kind}`,
        tabindex: '-1',
        'aria-label': l10n.t('Call {0}: {1}', c.call, callFigures(c).join(', ')),
      });
      bar.title = `${c.model ? l10n.t('Call {0} · {1}', c.call, c.model) : l10n.t('Call {0}', c.call)}\n${callFigures(c).join(' · ')}${c.toolCalls.length ? `\n${c.toolCalls.map((t) => t.name).join(', ')}` : ''}`;
      bar.addEventListener('click', () => {
        this.focused = i;
        this.onPick(i);
      });
      return bar;
    });
    this.strip.replaceChildren(...this.bars);
    this.focused = Math.min(this.focused, Math.max(0, this.bars.length - 1));
    if (this.bars[this.focused]) this.bars[this.focused].tabIndex = 0;
    this.layout();
  }

  setMeasure(measure: TimelineMeasure): void {
    this.measure = measure;
    this.layout();
  }

  /** Dims the bars of calls the search does not match. */
  mark(matching: ReadonlySet<number> | undefined): void {
    this.bars.forEach((b, i) => b.classList.toggle('dim', matching !== undefined && !matching.has(i)));
  }

  private focus(i: number): void {
    this.bars[this.focused].tabIndex = -1;
    this.focused = i;
    this.bars[i].tabIndex = 0;
    this.bars[i].focus();
  }

  private layout(): void {
    const width = this.root.clientWidth;
    if (width === 0) return;
    // Many calls: no gaps (every pixel counts); alternate bars are lighter so each stays apart.
    const l = timelineLayout(
      this.calls.map((c) => callMeasure(c, this.measure)),
      width,
      { minWidth: 2, gap: this.calls.length > 150 ? 0 : 1 },
    );
    this.strip.style.width = `${l.width}px`;
    l.bars.forEach((b, i) => {
      const bar = this.bars[i];
      bar.style.left = `${b.x}px`;
      bar.style.width = `${b.width}px`;
    });
  }
}
