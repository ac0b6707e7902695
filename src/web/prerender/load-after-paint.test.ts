import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadAfterFirstPaint } from './load-after-paint';

// The unit project shares one document between files (isolate: false), so the head may already
// hold another file's <style>: only what the loader adds counts.
let before = new Set<Element>();
beforeEach(() => {
  before = new Set(document.head.children);
});

afterEach(() => {
  vi.useRealTimers();
  for (const element of [...document.head.children]) if (!before.has(element)) element.remove();
});

const added = () =>
  [...document.head.children].filter((element) => !before.has(element)).map((element) =>
    element instanceof HTMLScriptElement ? `script ${element.type} ${element.getAttribute('src')}` : `link ${element.getAttribute('rel')} ${element.getAttribute('href')}`,
  );

describe('the inline loader (issue 19)', () => {
  it('after the first frame asks for the stylesheet, then runs each chunk of the first load and the entry as module scripts of their own, once', () => {
    vi.useFakeTimers();
    loadAfterFirstPaint('/assets/index.js', ['/assets/react.js', '/assets/dist.js'], ['/assets/index.css']);
    expect(added()).toEqual([]);
    vi.advanceTimersByTime(500);
    expect(added()).toEqual(['link stylesheet /assets/index.css', 'script module /assets/react.js', 'script module /assets/dist.js', 'script module /assets/index.js']);
    // The frame's callback and the half-second fallback both fire: still once.
    vi.advanceTimersByTime(1000);
    expect(added()).toHaveLength(4);
  });
});
