import { createContext, useCallback, useContext, useEffect, useRef, type ReactNode } from 'react';

/**
 * Says a change out loud to screen-reader users (WCAG 4.1.3, issue 21): a coupon applied or
 * refused, a traveller added, a plan added to compare, a new price, a filter's count. The page
 * keeps two live regions from its first render, because a region added with its text is not
 * read. They carry aria-live without a role, so they are no page's status or alert. Each message
 * replaces the last; the region is emptied first and written a moment later, so the same words
 * said twice are read twice.
 */
export type Announce = (message: string, options?: { urgent?: boolean }) => void;

const AnnouncerContext = createContext<Announce>(() => {});

/** The function that announces; outside the app (a screen rendered alone) it does nothing. */
export const useAnnounce = (): Announce => useContext(AnnouncerContext);

/** How long an emptied region stays empty before the message is written. */
export const ANNOUNCE_DELAY_MS = 100;

const hidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  margin: -1,
  padding: 0,
  overflow: 'hidden',
  clipPath: 'inset(50%)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

export function AnnouncerProvider({ children }: { children: ReactNode }) {
  const polite = useRef<HTMLDivElement>(null);
  const urgent = useRef<HTMLDivElement>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const announce = useCallback<Announce>((message, options) => {
    const region = (options?.urgent ? urgent : polite).current;
    const other = (options?.urgent ? polite : urgent).current;
    if (!region) return;
    window.clearTimeout(timer.current);
    region.textContent = '';
    if (other) other.textContent = '';
    timer.current = window.setTimeout(() => {
      region.textContent = message;
    }, ANNOUNCE_DELAY_MS);
  }, []);
  return (
    <AnnouncerContext.Provider value={announce}>
      {children}
      <div ref={polite} aria-live="polite" aria-atomic="true" data-testid="announcer" style={hidden} />
      <div ref={urgent} aria-live="assertive" aria-atomic="true" data-testid="announcer-urgent" style={hidden} />
    </AnnouncerContext.Provider>
  );
}
