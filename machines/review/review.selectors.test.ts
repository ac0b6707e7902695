import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import { reviewFieldRules } from '../../src/contract/traveller-review.rules';
import { reviewMachine } from './review.machine';
import { REVIEW_FAILURES, REVIEW_LINK, reviewData, reviewInput, sampleInvoice, travellerValues, type ReviewDataOptions } from './review.model';
import {
  reviewOutcomeEvent,
  selectCurrentTraveller,
  selectCustomer,
  selectDobDialog,
  selectEmailSent,
  selectFormOpen,
  selectInvoice,
  selectIsFirst,
  selectIsLast,
  selectLead,
  selectOptions,
  selectOtherPassports,
  selectOutcome,
  selectPlan,
  selectSaveFailed,
  selectSaving,
  selectServerErrors,
  selectSharing,
  selectTravellerCount,
  selectViewState,
  selectWhatsappTemplate,
} from './review.selectors';
import { isPlanGone, resumeIndex, reviewPlanOf, reviewValues, reviewValuesOf, travellerFieldErrors } from './review.travellers';
import type { ReviewData, ReviewInput, ReviewOutput, SaveTravellerResult } from './review.types';
import type { JourneyEvent } from '../journey.types';
import { waitForSnapshot } from '../model-tooling/wait-for-snapshot';

/** A running step over reviewData(options) whose saves and shares never settle, so both can be observed. */
async function readyActor(options: ReviewDataOptions = {}, input: ReviewInput = reviewInput()) {
  const actor = createActor(
    reviewMachine.provide({
      actors: {
        loadReview: fromPromise(async () => reviewData(options)),
        saveTraveller: fromPromise(() => new Promise<SaveTravellerResult>(() => {})),
        sendEmail: fromPromise(() => new Promise<unknown>(() => {})),
      },
    }),
    { input, clock: new SimulatedClock() },
  ).start();
  await waitForSnapshot(actor, (snapshot) => selectViewState(snapshot) !== 'loading');
  return actor;
}

describe('reviewOutcomeEvent', () => {
  it.each<[ReviewOutput, JourneyEvent]>([
    [{ type: 'completed' }, { type: 'review.completed' }],
    [{ type: 'planMissing' }, { type: 'review.planMissing' }],
    [{ type: 'updateDetails' }, { type: 'review.updateDetails' }],
    [{ type: 'finished' }, { type: 'journey.reset' }],
  ])('%j -> %j', (output, event) => {
    expect(reviewOutcomeEvent(output)).toEqual(event);
  });
});

describe('view state', () => {
  it('loading, then ready, and no outcome while the step runs', async () => {
    const pending = createActor(reviewMachine.provide({ actors: { loadReview: fromPromise(() => new Promise<ReviewData>(() => {})) } }), { input: reviewInput() }).start();
    expect(selectViewState(pending.getSnapshot())).toBe('loading');
    expect(selectFormOpen(pending.getSnapshot())).toBe(false);
    const actor = await readyActor();
    expect(selectViewState(actor.getSnapshot())).toBe('ready');
    expect(selectOutcome(actor.getSnapshot())).toBeNull();
  });

  it('failed when the lead cannot be read; done once the step has ended', async () => {
    const failed = createActor(reviewMachine.provide({ actors: { loadReview: fromPromise((): Promise<ReviewData> => Promise.reject(REVIEW_FAILURES.network)) } }), { input: reviewInput() }).start();
    await waitForSnapshot(failed, (snapshot) => snapshot.matches('failed'));
    expect(selectViewState(failed.getSnapshot())).toBe('failed');
    const done = createActor(reviewMachine, { input: reviewInput({ thankYou: true }) }).start();
    expect(selectViewState(done.getSnapshot())).toBe('done');
    expect(selectOutcome(done.getSnapshot())).toEqual({ type: 'finished' });
  });
});

describe('the open traveller', () => {
  it('carries id, position, values and the provider-3 field rules (relationship from the 2nd traveller)', async () => {
    const actor = await readyActor({ saved: [0] }, reviewInput({ storedIndex: 1 }));
    const snapshot = actor.getSnapshot();
    const current = selectCurrentTraveller(snapshot)!;
    expect(current).toMatchObject({ id: 62, index: 1, number: 2, saved: false });
    expect(current.values).toMatchObject({ dob: '1987-06-15', relationship_type_id: 1, country_id: 422 });
    expect(current.rules).toEqual(reviewFieldRules(selectPlan(snapshot)!, 1));
    expect(current.rules.relationship_type_id).toEqual({ shown: true, required: true });
    expect(current.rules.gender_id).toEqual({ shown: true, required: true });
    expect(selectIsFirst(snapshot)).toBe(false);
    expect(selectIsLast(snapshot)).toBe(false);
    expect(selectTravellerCount(snapshot)).toBe(3);
  });

  it('provider 1000 (API plan) asks for the passport only', async () => {
    const actor = await readyActor({ count: 1, invoice: sampleInvoice({ insurance_provider_id: 1000 }) });
    const { rules } = selectCurrentTraveller(actor.getSnapshot())!;
    expect(Object.entries(rules).filter(([, rule]) => rule.shown).map(([field]) => field)).toEqual(['type', 'first_name', 'middle_name', 'last_name', 'dob', 'passport']);
    expect(selectIsFirst(actor.getSnapshot())).toBe(true);
    expect(selectIsLast(actor.getSnapshot())).toBe(true);
  });

  it('shows what was submitted while it saves, and the saved values otherwise', async () => {
    const actor = await readyActor();
    const typed = { ...travellerValues(0), middle_name: 'Nour' };
    expect(selectCurrentTraveller(actor.getSnapshot())!.values.middle_name).toBeNull();
    actor.send({ type: 'traveller.save', values: typed });
    expect(selectCurrentTraveller(actor.getSnapshot())!.values).toEqual(typed);
    expect(selectSaving(actor.getSnapshot())).toBe(true);
  });

  it('the other travellers\' passports, for the duplicate rule', async () => {
    const actor = await readyActor({ saved: [0, 2] }, reviewInput({ storedIndex: 1 }));
    expect(selectOtherPassports(actor.getSnapshot())).toEqual([travellerValues(0).passport, travellerValues(2).passport]);
  });

  it('nothing to show before the lead is loaded', () => {
    const actor = createActor(reviewMachine, { input: reviewInput({ uuid: null }) }).start();
    expect(selectCurrentTraveller(actor.getSnapshot())).toBeNull();
    expect(selectTravellerCount(actor.getSnapshot())).toBe(0);
  });
});

describe('page data and dialogs', () => {
  it('reads the invoice, lead, customer, options, plan and share text as loaded', async () => {
    const snapshot = (await readyActor()).getSnapshot();
    const data = reviewData();
    expect(selectInvoice(snapshot)).toEqual(data.details.get_invoice);
    expect(selectLead(snapshot)).toEqual(data.details.lead_details);
    expect(selectCustomer(snapshot)).toEqual(data.details.get_customer);
    expect(selectOptions(snapshot)).toEqual(data.options);
    expect(selectPlan(snapshot)).toEqual({ providerId: 3, isApiPlan: 1, isFamily: true, sourceId: 422 });
    expect(selectWhatsappTemplate(snapshot)).toContain(REVIEW_LINK);
    expect(selectDobDialog(snapshot)).toEqual({ open: false, message: null });
    expect(selectSaveFailed(snapshot)).toBe(false);
    expect(selectServerErrors(snapshot)).toEqual({});
  });

  it('sharing while the e-mail goes out; not sent yet', async () => {
    const actor = await readyActor({}, reviewInput({ agentId: 101 }));
    expect(selectSharing(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'share.email' });
    expect(selectSharing(actor.getSnapshot())).toBe(true);
    expect(selectEmailSent(actor.getSnapshot())).toBe(false);
  });
});

describe('pure helpers', () => {
  it('resumeIndex: the stored index, within bounds, never past the first unsaved traveller', () => {
    const travellers = (saved: boolean[]) => saved.map((flag, id) => ({ id, values: travellerValues(0), saved: flag }));
    expect(resumeIndex(travellers([true, true, false]), 2)).toBe(2);
    expect(resumeIndex(travellers([true, false, false]), 2)).toBe(1);
    expect(resumeIndex(travellers([false, true, true]), 2)).toBe(0);
    expect(resumeIndex(travellers([true, true, true]), 7)).toBe(2);
    expect(resumeIndex(travellers([true, true, true]), -1)).toBe(0);
    expect(resumeIndex(travellers([]), 3)).toBe(0);
  });

  it('travellerFieldErrors reads only 422 traveller.<field> review codes', () => {
    expect(travellerFieldErrors(REVIEW_FAILURES.invalid)).toEqual({ passport: 'passport_duplicate', gender_id: 'gender_required' });
    expect(travellerFieldErrors(REVIEW_FAILURES.invalidLead)).toEqual({});
    expect(travellerFieldErrors(REVIEW_FAILURES.network)).toEqual({});
    expect(travellerFieldErrors(new Error('boom'))).toEqual({});
    expect(travellerFieldErrors({ ...REVIEW_FAILURES.invalid, status: 409 })).toEqual({});
  });

  it('travellerFieldErrors leaves out the fields of another object, even a key as long as traveller.', () => {
    const refusal = { kind: 'invalid', status: 422, body: { status: 422, message: 'refused', data: { errors: { 'lead_info.passport': 'passport_duplicate' } } } };
    expect(travellerFieldErrors(refusal)).toEqual({});
  });

  it('reviewPlanOf: no plan without an invoice', () => {
    expect(reviewPlanOf(reviewData({ invoice: null }))).toBeNull();
  });

  it('reviewValuesOf keeps a saved middle name, and reads none as null', () => {
    const [row] = reviewData().details.lead_details.travellers_info;
    expect(reviewValuesOf({ ...row!, middle_name: 'Maria' }).middle_name).toBe('Maria');
    expect(reviewValuesOf({ ...row!, middle_name: undefined as unknown as null }).middle_name).toBeNull();
  });

  it('isPlanGone: only 409 plan_not_chosen or plan_changed', () => {
    expect(isPlanGone(REVIEW_FAILURES.planNotChosen)).toBe(true);
    expect(isPlanGone(REVIEW_FAILURES.planChanged)).toBe(true);
    expect(isPlanGone({ ...REVIEW_FAILURES.planNotChosen, status: 422 })).toBe(false);
    expect(isPlanGone(REVIEW_FAILURES.server)).toBe(false);
    expect(isPlanGone(null)).toBe(false);
  });

  it('reviewValues keeps exactly the review fields, in the form\'s order', () => {
    const values = reviewValues({ ...travellerValues(1), extra: 'x' } as ReturnType<typeof travellerValues>);
    expect(Object.keys(values)).toEqual([
      'type',
      'first_name',
      'middle_name',
      'last_name',
      'dob',
      'gender_id',
      'passport',
      'country_id',
      'nationality_id',
      'relationship_type_id',
    ]);
    expect(values).toEqual(travellerValues(1));
  });
});
