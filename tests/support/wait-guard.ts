/**
 * How long any test's wait on state may take before the test fails (issue 35 item 1). It is a
 * hang guard, never a wait: a wait on an element, an actor's snapshot, a row or a poll returns
 * as soon as what it waits for is there, and only a wait that fails takes all of it. One figure
 * for every kind of wait, set here and nowhere else:
 * - expect.poll (vite.config.ts; vitest's own default is 1 s);
 * - Testing Library's findBy and waitFor (tests/support/dom-setup.ts; its default is 1 s);
 * - every Playwright wait on a page the e2e harness opens (tests/e2e/harness.ts);
 * - vi.waitFor, which takes it as an argument (`{ timeout: WAIT_GUARD_MS }`).
 * The machine may be busy with other suites beside a test (tests/run-suites.ts), so the guard
 * is far above what a wait takes there; a test's own timeout (vite.config.ts) is above it again.
 */
export const WAIT_GUARD_MS = 30_000;
