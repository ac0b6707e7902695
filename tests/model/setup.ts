import { configure } from '@testing-library/react';

// The model tests render the whole app for thousands of steps, two test files at a time on a
// 2-core machine (tests/model/run.ts): a screen may take longer than Testing Library's default
// second to show what a step leads to. A wait that succeeds returns as soon as it does; only a
// failing one takes the whole five seconds.
configure({ asyncUtilTimeout: 5000 });
