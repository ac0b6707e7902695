// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as travelDetails from './traveller-details/traveller-details.screen';
import { preloadScreenAt } from './journey-outlet';

vi.mock('./traveller-details/traveller-details.screen', async (original) => ({
  ...(await original<typeof import('./traveller-details/traveller-details.screen')>()),
  preloadTravelDetailsForm: vi.fn(() => Promise.resolve()),
}));

afterEach(() => vi.clearAllMocks());

describe('preloadScreenAt: the page a link opens asks for its screen at boot (issue 19)', () => {
  it.each(['/', '/traveller-details', '/traveller-details/', '/no-such-page'])('%s shows travel details, so its form chunk is asked for', (path) => {
    preloadScreenAt(path);
    expect(travelDetails.preloadTravelDetailsForm).toHaveBeenCalledTimes(1);
  });

  it('a later step’s page does not ask for the travel details form', () => {
    preloadScreenAt('/checkout');
    expect(travelDetails.preloadTravelDetailsForm).not.toHaveBeenCalled();
  });
});
