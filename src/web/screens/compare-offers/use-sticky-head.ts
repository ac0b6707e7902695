import { useLayoutEffect, useRef, useState } from 'react';

/** The app's sticky header (shell.module.css): the plan heads stay in view below it. */
const APP_HEADER_PX = 64;
/** Room left between the heads and a control the focus scrolls to (global.css leaves 20 px below the header). */
const ROOM_BELOW_HEADS_PX = 20;

const followsOnCompositor = () => typeof CSS !== 'undefined' && CSS.supports('animation-timeline: view()');

/**
 * The compare table's plan heads kept in view as the page scrolls (issue 38), with what the focus
 * moves to kept clear of them (WCAG 2.4.11): the page's scroll padding grows by their height while
 * the table shows, as the compare bar's does at the page's end (compare-tray.tsx). On phones the
 * table's box scrolls sideways, so the heads cannot stick to the page: they follow it by a
 * scroll-driven animation (offers-table.module.css), told here how far they may go, or where the
 * browser has none, moved here on each scroll. Also says whether the box scrolls sideways: then it
 * takes the focus, so a keyboard can scroll it.
 */
export function useStickyHead() {
  const scrollerRef = useRef<HTMLDivElement>(null);
  const headRef = useRef<HTMLTableSectionElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    const head = headRef.current;
    const table = head?.parentElement;
    if (!scroller || !head || !table) return;
    const root = document.documentElement;
    const onCompositor = followsOnCompositor();
    let travel = 0;
    let frame = 0;
    const follow = () => {
      frame = 0;
      // Phones only: from the sm breakpoint the box does not scroll and the heads are sticky.
      const boxScrolls = getComputedStyle(scroller).overflowX !== 'visible';
      const offset = boxScrolls ? Math.min(Math.max(APP_HEADER_PX - scroller.getBoundingClientRect().top, 0), travel) : 0;
      head.style.transform = offset > 0 ? `translateY(${offset}px)` : '';
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(follow);
    };
    const measure = () => {
      const height = Math.ceil(head.getBoundingClientRect().height);
      travel = Math.max(table.getBoundingClientRect().height - height, 0);
      scroller.style.setProperty('--offers-travel', `${travel}px`);
      root.style.scrollPaddingBlockStart = `${APP_HEADER_PX + height + ROOM_BELOW_HEADS_PX}px`;
      setScrolls(scroller.scrollWidth > scroller.clientWidth);
      if (!onCompositor) follow();
    };
    measure();
    const observer = new ResizeObserver(measure);
    for (const element of [scroller, head, table]) observer.observe(element);
    if (!onCompositor) window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      observer.disconnect();
      window.removeEventListener('scroll', onScroll);
      cancelAnimationFrame(frame);
      root.style.scrollPaddingBlockStart = '';
    };
  }, []);
  return { scrollerRef, headRef, scrolls };
}
