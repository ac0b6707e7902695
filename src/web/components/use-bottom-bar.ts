import { useLayoutEffect, type RefObject } from 'react';

/** Space kept between the bars and a focused control scrolled above them (the focus ring's width and some). */
const CLEARANCE_PX = 12;

interface Bar {
  element: HTMLElement;
  /** Lower first: the compare bar sits on the edge, the share toast above it. */
  order: number;
}

const bars = new Set<Bar>();

/** Stacks the bars from the page's bottom edge up and keeps the page clear of all of them. */
function layOut() {
  let offset = 0;
  for (const bar of [...bars].sort((a, b) => a.order - b.order)) {
    bar.element.style.insetBlockEnd = `${offset}px`;
    offset += Math.ceil(bar.element.getBoundingClientRect().height);
  }
  const clear = bars.size > 0 ? `${offset + CLEARANCE_PX}px` : '';
  document.documentElement.style.scrollPaddingBlockEnd = clear;
  document.body.style.paddingBlockEnd = clear;
}

/**
 * A bar fixed at the page's bottom edge (the compare bar, the agent's "link sent" toast) that never
 * hides the focus (WCAG 2.4.11, issues 21 and 38): focus moved by Tab scrolls to stop above the
 * bars (scroll-padding at the page's end, as global.css does below the header), and the page gets
 * room at its end as tall as they are, so the last control can scroll out from under them. Bars
 * shown together stack by `order` instead of covering each other. All follow their heights as
 * they change (a refusal, a narrow screen where the compare bar takes two rows).
 */
export function useBottomBar(bar: RefObject<HTMLElement | null>, order: number): void {
  useLayoutEffect(() => {
    const element = bar.current;
    if (!element) return;
    const entry: Bar = { element, order };
    bars.add(entry);
    layOut();
    const observer = new ResizeObserver(layOut);
    observer.observe(element);
    return () => {
      observer.disconnect();
      bars.delete(entry);
      layOut();
    };
  }, [bar, order]);
}
