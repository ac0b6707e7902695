import { fromPromise } from 'xstate';
import { reviewMachine } from '../../../../machines/review/review.machine';
import type { LoadReviewInput, ReviewData, ReviewOptions } from '../../../../machines/review/review.types';
import { sendEmailByPage } from '../../services/quote.service';
import { fetchCountryOptions, fetchRelationshipOptions, fetchTravelConfigs } from '../../services/reference.service';
import { fetchLeadWithPlan, fetchWhatsappTemplate, saveTravellerInfo } from '../../services/review.service';
import { localStore } from '../../storage/local-store';

const NO_OPTIONS: ReviewOptions = { titles: [], genders: [], residences: [], nationalities: [], relationships: [] };

/**
 * The lead with its chosen plan, then the form's lists for that plan's insurer: nationalities
 * it covers for this trip (RULINGS 4) and, for a family, the family relationships. The lists
 * that do not depend on the plan (titles and genders, countries of residence) are asked for
 * beside the lead, not after it (issue 19).
 */
export async function loadReview({ uuid, sessionId, lang, link }: LoadReviewInput): Promise<ReviewData> {
  const configsCall = fetchTravelConfigs(lang);
  const residencesCall = fetchCountryOptions(lang);
  // Awaited below, or dropped when the lead fails or has no plan: never an unhandled rejection.
  configsCall.catch(() => undefined);
  residencesCall.catch(() => undefined);
  const details = await fetchLeadWithPlan(uuid, sessionId, lang);
  const invoice = details.get_invoice;
  if (!invoice) return { details, options: NO_OPTIONS, whatsappTemplate: '' };
  const lead = details.lead_details;
  const [configs, residences, nationalities, relationships, whatsappTemplate] = await Promise.all([
    configsCall,
    residencesCall,
    fetchCountryOptions(lang, { insurance_provider_id: invoice.insurance_provider_id, destination_ids: lead.destination_id }),
    lead.is_family ? fetchRelationshipOptions(lang).then((lists) => lists.families) : null,
    link ? fetchWhatsappTemplate(uuid, link, lang) : '',
  ]);
  return {
    details,
    options: {
      titles: configs.titles,
      genders: configs.genders,
      residences,
      nationalities,
      relationships: relationships ?? configs.relationTypesWithoutPrincipal,
    },
    whatsappTemplate,
  };
}

/** The review machine with its calls and storage writes (DESIGN convention 1). */
export const reviewLogic = reviewMachine.provide({
  actors: {
    loadReview: fromPromise(({ input }) => loadReview(input)),
    saveTraveller: fromPromise(({ input }) => saveTravellerInfo(input)),
    sendEmail: fromPromise(({ input }) => sendEmailByPage(input)),
  },
  actions: {
    // Spec §3 traveller_index and travellerLength: a reload resumes at the stored traveller.
    storeTravellerIndex: (_, { index }) => localStore.set('traveller_index', String(index)),
    storeTravellerLength: (_, { length }) => localStore.set('travellerLength', String(length)),
  },
});
