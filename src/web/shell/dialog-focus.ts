import { useLayoutEffect, useRef } from 'react';

/** How long after a dialog closes the focus is placed: Mantine's focus trap lets go first. */
export const DIALOG_FOCUS_RETURN_MS = 20;

/** The page's own heading (PageHeading: an h1 that takes focus), where focus goes when nothing better is left. */
const PAGE_HEADING = 'main h1[tabindex="-1"]';

/** An element that can take the focus back: still in the page, enabled, shown, outside any dialog. */
function isLive(element: Element | null): element is HTMLElement {
  if (!(element instanceof HTMLElement) || element === document.body || !element.isConnected) return false;
  if (element.matches(':disabled') || element.closest('[role="dialog"], [inert], [aria-hidden="true"]')) return false;
  // A browser says whether the element shows; one without checkVisibility counts it as shown.
  return typeof element.checkVisibility !== 'function' || element.checkVisibility();
}

/**
 * Where the focus goes when a dialog has closed (WCAG 2.4.3, issue 21): back to the control that
 * opened it while that is still there and enabled, else to the page's heading, so keyboard and
 * screen-reader users carry on from where they were instead of from the top of <body>.
 */
export function focusAfterDialog(opener: Element | null): void {
  const target = isLive(opener) ? opener : document.querySelector<HTMLElement>(PAGE_HEADING);
  target?.focus();
}

/**
 * Gives the focus back when a dialog closes or goes away while open. Mantine's own returnFocus
 * (turn it off where this is used) remembers the opener only when `opened` changes after the
 * first render, so a dialog mounted open (the existing-leads chooser, the first system error)
 * had none, and it gives the focus to whatever it remembered even when that is <body> or a
 * disabled button. The focus is moved only if it is still lost (on <body>) or still in the
 * closing dialog: a page the dialog led to focuses its own heading, and that stays.
 */
export function useDialogFocusReturn(opened: boolean): void {
  const opener = useRef<Element | null>(null);
  const pending = useRef<number | undefined>(undefined);
  // A layout effect: it runs before the focus trap moves the focus into the dialog (a timeout).
  useLayoutEffect(() => {
    if (!opened) return;
    window.clearTimeout(pending.current);
    opener.current = document.activeElement;
    return () => {
      pending.current = window.setTimeout(() => {
        // The page itself may be gone by now (a dialog unmounted with its window, as a test's
        // DOM is torn down after its last render): then there is no focus to give back.
        if (typeof document === 'undefined') return;
        const active = document.activeElement;
        if (!active || active === document.body || active.closest('[role="dialog"]')) focusAfterDialog(opener.current);
      }, DIALOG_FOCUS_RETURN_MS);
    };
  }, [opened]);
}
