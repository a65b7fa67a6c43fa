/** A one-line progress bar on stderr, drawn only when stderr is a terminal. */
export function progressBar(total: number, enabled: boolean) {
  const width = 30;
  const draw = (done: number) => {
    if (!enabled || total === 0) return;
    const share = Math.min(1, done / total);
    const filled = Math.round(share * width);
    process.stderr.write(`\rPushing [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.min(done, total)}/${total}`);
  };
  return {
    update: draw,
    end(): void {
      if (enabled && total > 0) process.stderr.write('\n');
    },
  };
}
