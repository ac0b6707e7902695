import { configure, getConfig, prettyDOM } from '@testing-library/react';
import { vi } from 'vitest';
import { WAIT_GUARD_MS } from './wait-guard';

// The unit project's files share their worker's process (isolate: false, vite.config.ts, issue
// 35): React, Mantine, happy-dom and Testing Library, loaded by Node, stay loaded for the worker's
// next file. The app's own modules do not: they are cleared here, before each file imports them,
// so a file gets the app as it starts (its module-level state new) and its vi.mock replaces a
// service for every module that imports it, as in a worker of its own. Without this, 6
// compare-offers tests failed in a shuffled run, their mocked quote service missed by screens an
// earlier file had loaded.
vi.resetModules();

// Every page of a lead opened by its address first asks the server whether the lead is paid
// (RULINGS 28, journey-outlet.tsx). The DOM tests answer at that service, as they answer the
// others: a lead is not paid, and a policy page stays loading, unless a file mocks the services
// themselves (src/web/screens/policy/policy.screen.test.tsx does).
vi.mock('../../src/web/services/lead-status.service', () => ({
  fetchLeadStatus: vi.fn(async () => ({ status: 'open', policy_page: null })),
}));
vi.mock('../../src/web/services/policy-page.service', () => ({
  fetchPolicyPage: vi.fn(() => new Promise(() => {})),
  resendPolicy: vi.fn(() => new Promise(() => {})),
  requestCancellation: vi.fn(() => new Promise(() => {})),
}));

// Screens render the whole app, and `npm test` runs two test files at a time beside other suites
// on a 2-core machine (tests/run-suites.ts): a screen may take longer than Testing Library's
// default second to show what a step leads to. The hang guard of every wait (wait-guard.ts).
//
// A query that finds nothing throws an error carrying the whole page (prettyDOM). Waits retry
// such a query until it finds its element, each miss throwing again, and the errors of the
// misses are thrown away: printing the page for each was 7 % of a screen file's CPU
// (compare-quotes.screen.test.tsx, profiled). The page is printed when the message is read: when
// vitest reports the failure, or when a wait gives up on its last miss, just after it.
configure({ asyncUtilTimeout: WAIT_GUARD_MS, getElementError: elementErrorPrintedWhenRead });

function elementErrorPrintedWhenRead(message: string | null, container: Element): Error {
  const error = new Error();
  error.name = 'TestingLibraryElementError';
  // The stack starts at the query that missed, as Testing Library's own error's does.
  Error.captureStackTrace(error, elementErrorPrintedWhenRead);
  let text: string | undefined;
  Object.defineProperty(error, 'message', {
    configurable: true,
    enumerable: false,
    // As Testing Library's own getElementError words it.
    get: () => (text ??= [message, `Ignored nodes: comments, ${getConfig().defaultIgnore}\n${prettyDOM(container)}`].filter(Boolean).join('\n\n')),
    set: (value: string) => {
      text = value;
    },
  });
  return error;
}

// Every media query answers false, as the screens' tests were written: happy-dom would answer
// them for its 1024 px window, so a screen's layout would depend on the test DOM's default size.
// (happy-dom has ResizeObserver, scrollTo and scrollIntoView itself; jsdom, used until issue 35,
// needed stubs for them.) A file that opts into the node environment has no window.
if (typeof window !== 'undefined') {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener() {},
      removeListener() {},
      addEventListener() {},
      removeEventListener() {},
      dispatchEvent: () => false,
    }),
  });
}
