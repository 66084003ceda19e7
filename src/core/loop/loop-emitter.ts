// Calls a loop's listener so that nothing it does (a view's bug) can stop the loop.
import type { LoopEvent } from './loop-types';

export function loopEmitter(listener: ((e: LoopEvent) => void) | undefined): (e: LoopEvent) => void {
  return (e) => {
    try {
      listener?.(e);
    } catch {
      // A view's bug must not stop the loop.
    }
  };
}
