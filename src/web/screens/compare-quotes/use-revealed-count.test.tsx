import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_CARDS, MORE_CARDS, useRevealedCount } from './use-revealed-count';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** Runs the pending timer (the next task) and lets React commit what it scheduled. */
async function nextTask() {
  await act(async () => {
    vi.advanceTimersToNextTimer();
  });
}

describe('the quote list draws its cards a few per task', () => {
  it('draws three cards at once, then two more in each later task, until all seven are drawn', async () => {
    const { result } = renderHook(({ total }) => useRevealedCount(total), { initialProps: { total: 7 } });
    expect([FIRST_CARDS, MORE_CARDS]).toEqual([3, 2]);
    expect(result.current).toBe(3);
    await nextTask();
    expect(result.current).toBe(5);
    await nextTask();
    expect(result.current).toBe(7);
    await nextTask();
    expect(result.current).toBe(7);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('draws a short list whole, with nothing left to schedule', () => {
    const { result } = renderHook(() => useRevealedCount(2));
    expect(result.current).toBe(2);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('waits while the list is loading (no cards), and starts when the plans arrive', async () => {
    const { result, rerender } = renderHook(({ total }) => useRevealedCount(total), { initialProps: { total: 0 } });
    expect(result.current).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    rerender({ total: 6 });
    expect(result.current).toBe(3);
    await nextTask();
    expect(result.current).toBe(5);
    await nextTask();
    expect(result.current).toBe(6);
  });

  it('once every card is drawn, a sort or filter that brings cards back draws them all at once', async () => {
    const { result, rerender } = renderHook(({ total }) => useRevealedCount(total), { initialProps: { total: 5 } });
    await nextTask();
    expect(result.current).toBe(5);
    rerender({ total: 1 });
    expect(result.current).toBe(1);
    rerender({ total: 5 });
    expect(result.current).toBe(5);
    expect(vi.getTimerCount()).toBe(0);
  });
});
