import { configure } from '@testing-library/react';

// Screens render the whole app, and `npm test` runs two test files at a time beside other suites
// on a 2-core machine (tests/run-suites.ts): a screen may take longer than Testing Library's
// default second to show what a step leads to (five seconds were reached too, with the machine
// busy). A wait that succeeds returns as soon as it does; only a failing one takes the whole 20 s.
configure({ asyncUtilTimeout: 20_000 });

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
