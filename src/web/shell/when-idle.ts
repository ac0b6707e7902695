/**
 * Runs `work` when the browser is idle (after a short timer where it has no idle callbacks),
 * so loading what later steps need never competes with the customer's first taps (issue 19).
 * Returns a cancel function.
 */
export function whenIdle(work: () => void): () => void {
  if ('requestIdleCallback' in window) {
    const id = window.requestIdleCallback(work);
    return () => window.cancelIdleCallback(id);
  }
  const timer = setTimeout(work, 1500);
  return () => clearTimeout(timer);
}
