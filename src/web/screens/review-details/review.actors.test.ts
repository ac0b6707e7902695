// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchCountryOptions, fetchRelationshipOptions, fetchTravelConfigs } from '../../services/reference.service';
import { fetchLeadWithPlan, fetchWhatsappTemplate } from '../../services/review.service';
import { loadReview } from './review.actors';

// The API services are the edge of the world here: what matters is when each call starts.
vi.mock('../../services/reference.service', () => ({ fetchCountryOptions: vi.fn(), fetchRelationshipOptions: vi.fn(), fetchTravelConfigs: vi.fn() }));
vi.mock('../../services/review.service', () => ({ fetchLeadWithPlan: vi.fn(), fetchWhatsappTemplate: vi.fn(), saveTravellerInfo: vi.fn() }));
vi.mock('../../services/quote.service', () => ({ sendEmailByPage: vi.fn() }));

const INPUT = { uuid: 'a9d3c0de-0000-4000-8000-000000000001', sessionId: null, lang: 'en', link: null } as const;
const CONFIGS = { titles: [{ value: '1', label: 'Mr' }], genders: [{ value: '1', label: 'Male' }], relationTypesWithoutPrincipal: [] };
const RESIDENCES = [{ value: '422', label: 'Lebanon' }];
const NATIONALITIES = [{ value: '250', label: 'France' }];
const DETAILS = { get_invoice: { insurance_provider_id: 1000 }, lead_details: { destination_id: [250], is_family: false } };

afterEach(() => vi.resetAllMocks());

describe('loading the review step (issue 19)', () => {
  it('asks for the lists that do not depend on the plan beside the lead, before the lead answers', async () => {
    let answerLead!: (details: typeof DETAILS) => void;
    vi.mocked(fetchLeadWithPlan).mockReturnValue(new Promise((resolve) => (answerLead = resolve as never)) as never);
    vi.mocked(fetchTravelConfigs).mockResolvedValue(CONFIGS as never);
    vi.mocked(fetchCountryOptions).mockImplementation(async (_lang, filters) => (filters ? NATIONALITIES : RESIDENCES) as never);
    const loading = loadReview(INPUT);
    expect(fetchTravelConfigs).toHaveBeenCalledWith('en');
    expect(fetchCountryOptions).toHaveBeenCalledWith('en');
    expect(fetchCountryOptions).toHaveBeenCalledTimes(1);
    answerLead(DETAILS);
    const review = await loading;
    // The plan's nationalities only once the lead names its insurer and destinations.
    expect(fetchCountryOptions).toHaveBeenLastCalledWith('en', { insurance_provider_id: 1000, destination_ids: [250] });
    expect(review.options).toEqual({ titles: CONFIGS.titles, genders: CONFIGS.genders, residences: RESIDENCES, nationalities: NATIONALITIES, relationships: [] });
    expect(fetchRelationshipOptions).not.toHaveBeenCalled();
    expect(fetchWhatsappTemplate).not.toHaveBeenCalled();
  });

  it('a lead with no plan answers without lists, and the lists asked for beside it failing leave no unhandled rejection', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      vi.mocked(fetchLeadWithPlan).mockResolvedValue({ ...DETAILS, get_invoice: null } as never);
      vi.mocked(fetchTravelConfigs).mockRejectedValue(new Error('offline'));
      vi.mocked(fetchCountryOptions).mockRejectedValue(new Error('offline'));
      const review = await loadReview(INPUT);
      expect(review.options.residences).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
