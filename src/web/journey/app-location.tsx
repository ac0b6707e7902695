import { createContext, useContext, useMemo, useSyncExternalStore, type AnchorHTMLAttributes, type ReactNode, type Ref } from 'react';

/**
 * The address bar as the journey uses it: a path, a query and a hash, pushed or replaced, and
 * told when back/forward moves it. This is all the SPA needed from React Router (about 15 KB
 * of the first load, issue 19); the journey machine, not a route table, decides what shows.
 */
export interface AppLocation {
  pathname: string;
  search: string;
  hash: string;
}

export type HistoryAction = 'POP' | 'PUSH' | 'REPLACE';

export type To = string | Partial<AppLocation>;

export interface NavigateOptions {
  replace?: boolean;
}

/** A source of locations: the browser's history, or an in-memory list in tests. */
export interface LocationHistory {
  readonly location: AppLocation;
  readonly action: HistoryAction;
  /** Moves to `to` (a path with query, or parts of a location), or back/forward by a number. */
  navigate(to: To | number, options?: NavigateOptions): void;
  subscribe(listener: () => void): () => void;
}

/** Resolves `to` against the current location: parts left out keep nothing but the path. */
function resolve(to: To, current: AppLocation): AppLocation {
  if (typeof to === 'string') {
    const url = new URL(to, `http://app${current.pathname}`);
    return { pathname: url.pathname, search: url.search, hash: url.hash };
  }
  return { pathname: to.pathname ?? current.pathname, search: normalise(to.search, '?'), hash: normalise(to.hash, '#') };
}

const normalise = (part: string | undefined, mark: string) => (!part || part === mark ? '' : part.startsWith(mark) ? part : `${mark}${part}`);

export const hrefOf = (location: AppLocation) => `${location.pathname}${location.search}${location.hash}`;

function readWindow(): AppLocation {
  const { pathname, search, hash } = window.location;
  return { pathname, search, hash };
}

/** The browser's own history: push/replace state, and popstate for back and forward. */
export function createBrowserHistory(): LocationHistory {
  const listeners = new Set<() => void>();
  let location = readWindow();
  let action: HistoryAction = 'POP';
  const notify = () => listeners.forEach((listener) => listener());
  window.addEventListener('popstate', () => {
    location = readWindow();
    action = 'POP';
    notify();
  });
  return {
    get location() {
      return location;
    },
    get action() {
      return action;
    },
    navigate(to, options) {
      if (typeof to === 'number') {
        window.history.go(to);
        return;
      }
      const next = resolve(to, location);
      action = options?.replace ? 'REPLACE' : 'PUSH';
      if (options?.replace) window.history.replaceState(null, '', hrefOf(next));
      else window.history.pushState(null, '', hrefOf(next));
      location = readWindow();
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** A history kept in memory, starting at `url`, for tests (the test DOM's own history is shared). */
export function createMemoryHistory(url: string): LocationHistory & { readonly state: { location: AppLocation; historyAction: HistoryAction } } {
  const listeners = new Set<() => void>();
  const entries = [resolve(url, { pathname: '/', search: '', hash: '' })];
  let index = 0;
  let action: HistoryAction = 'POP';
  const notify = () => listeners.forEach((listener) => listener());
  return {
    get location() {
      return entries[index]!;
    },
    get action() {
      return action;
    },
    /** The shape React Router's memory router had, which the screen tests read. */
    get state() {
      return { location: entries[index]!, historyAction: action };
    },
    navigate(to, options) {
      if (typeof to === 'number') {
        index = Math.min(Math.max(index + to, 0), entries.length - 1);
        action = 'POP';
      } else {
        const next = resolve(to, entries[index]!);
        if (options?.replace) {
          entries[index] = next;
          action = 'REPLACE';
        } else {
          entries.splice(index + 1, entries.length, next);
          index += 1;
          action = 'PUSH';
        }
      }
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const HistoryContext = createContext<LocationHistory | null>(null);

export function LocationProvider({ history, children }: { history: LocationHistory; children: ReactNode }) {
  return <HistoryContext.Provider value={history}>{children}</HistoryContext.Provider>;
}

function useHistory(): LocationHistory {
  const history = useContext(HistoryContext);
  if (!history) throw new Error('useLocation/useNavigate outside a LocationProvider');
  return history;
}

/** False where a component renders on its own in a test, without an address bar. */
export const useInLocationContext = () => useContext(HistoryContext) !== null;

export function useLocation(): AppLocation {
  const history = useHistory();
  const read = () => history.location;
  // The same read on the server: the first screen is rendered at build time (src/web/prerender).
  return useSyncExternalStore(history.subscribe, read, read);
}

export type NavigateFunction = LocationHistory['navigate'];

export function useNavigate(): NavigateFunction {
  const history = useHistory();
  return useMemo(() => history.navigate.bind(history), [history]);
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: To; ref?: Ref<HTMLAnchorElement> };

/** An anchor that moves within the app; a modified click (new tab, window) is left to the browser. */
export function Link({ to, onClick, ref, children, ...rest }: LinkProps) {
  const history = useHistory();
  const target = resolve(to, history.location);
  return (
    <a
      {...rest}
      ref={ref}
      href={hrefOf(target)}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
        event.preventDefault();
        history.navigate(target);
      }}
    >
      {children}
    </a>
  );
}
