import { describe, expect, it } from 'vitest';
import { notProvided } from './not-provided';

describe('the placeholder of a call the web provides', () => {
  it('fails, naming the step and the call', async () => {
    await expect(notProvided('call back', 'loadForm')()).rejects.toThrow('call back: actor loadForm was not provided');
  });
});
