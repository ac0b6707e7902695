import { startTransition, useEffect, useState } from 'react';

/** Cards drawn at once: the loading outline's three, enough to fill a tall laptop screen. */
export const FIRST_CARDS = 3;
/** Cards added in each later task. */
export const MORE_CARDS = 2;

/**
 * How many of a list's `total` cards to draw: the first three at once, then two more in each
 * later task, until all are drawn; from then on all of them, whatever the list becomes (a sort or
 * a filter redraws every card at once). React renders a transition in slices, but it commits the
 * whole list in one task: seven quote cards, about 900 elements, took 45–50 ms to commit and
 * 55–65 ms more to style and lay out in the next task at desktop speed, four times that at
 * Lighthouse's 4× CPU (issue 19). The cards
 * past the third start below a phone's screen, so adding them moves nothing the customer sees.
 */
export function useRevealedCount(total: number): number {
  const [revealed, setRevealed] = useState(FIRST_CARDS);
  useEffect(() => {
    if (revealed >= total) return;
    const timer = setTimeout(() => startTransition(() => setRevealed((count) => count + MORE_CARDS)), 0);
    return () => clearTimeout(timer);
  }, [revealed, total]);
  return Math.min(revealed, total);
}
