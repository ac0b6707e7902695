import { configure } from '@testing-library/react';
import { WAIT_GUARD_MS } from './wait-guard';

// Screens render the whole app, and `npm test` runs two test files at a time beside other suites
// on a 2-core machine (tests/run-suites.ts): a screen may take longer than Testing Library's
// default second to show what a step leads to. The hang guard of every wait (wait-guard.ts).
configure({ asyncUtilTimeout: WAIT_GUARD_MS });

// jsdom lacks these browser APIs that Mantine and the shell use (TOOLCHAIN.md). A file that
// opts into the node environment has no window, and needs none of them.
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
if (!('ResizeObserver' in window)) {
  (globalThis as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
window.scrollTo = () => {};
Element.prototype.scrollIntoView = function scrollIntoView() {};
}
