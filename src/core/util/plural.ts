// "1 iteration", "3 iterations": a count with its noun, never "iteration(s)".

/** `count` and `word`, plural unless the count is 1 (`many`: an irregular plural). */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}
