import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import { waitForSnapshot } from '../model-tooling/wait-for-snapshot';
import { EMAIL_TOAST_MS } from '../agent-share';
import { reviewMachine } from './review.machine';
import {
  DOB_MESSAGE,
  DOB_RESULT,
  REVIEW_FAILURES,
  REVIEW_LEAD_UUID,
  REVIEW_LINK,
  REVIEW_SESSION_UUID,
  reviewData,
  reviewInput,
  sampleInvoice,
  savedResult,
  travellerValues,
} from './review.model';
import {
  reviewOutcomeEvent,
  selectCurrentTraveller,
  selectDobDialog,
  selectFormOpen,
  selectOutcome,
  selectSaveFailed,
  selectSaving,
  selectServerErrors,
  selectViewState,
} from './review.selectors';
import {
  NEXT_TRAVELLER_DELAY_MS,
  type LoadReviewInput,
  type ReviewData,
  type ReviewInput,
  type ReviewSendEmailInput,
  type SaveTravellerInput,
  type SaveTravellerResult,
} from './review.types';

interface Stubs {
  load?: () => Promise<ReviewData>;
  save?: (input: SaveTravellerInput) => Promise<SaveTravellerResult>;
  email?: (input: ReviewSendEmailInput) => Promise<unknown>;
}

function start(input: ReviewInput = reviewInput(), stubs: Stubs = {}) {
  const clock = new SimulatedClock();
  const calls = { load: [] as LoadReviewInput[], save: [] as SaveTravellerInput[], email: [] as ReviewSendEmailInput[] };
  const stored = { index: [] as number[], length: [] as number[] };
  const actor = createActor(
    reviewMachine.provide({
      actors: {
        loadReview: fromPromise(async ({ input }) => {
          calls.load.push(input);
          return (stubs.load ?? (async () => reviewData()))();
        }),
        saveTraveller: fromPromise(async ({ input }) => {
          calls.save.push(input);
          return (stubs.save ?? (async () => savedResult(0)))(input);
        }),
        sendEmail: fromPromise(async ({ input }) => {
          calls.email.push(input);
          return (stubs.email ?? (async () => ({ sent: true })))(input);
        }),
      },
      actions: {
        storeTravellerIndex: (_, { index }) => stored.index.push(index),
        storeTravellerLength: (_, { length }) => stored.length.push(length),
      },
    }),
    { input, clock },
  ).start();
  return { actor, calls, stored, clock };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

async function ready(input?: ReviewInput, stubs?: Stubs) {
  const started = start(input, stubs);
  await waitForSnapshot(started.actor, (snapshot) => selectViewState(snapshot) !== 'loading');
  return started;
}

type Started = Awaited<ReturnType<typeof ready>>;

const index = ({ actor }: Started) => actor.getSnapshot().context.index;

/** Proceed on the open form, then wait for the save to settle. */
async function save({ actor }: Started, values = travellerValues(actor.getSnapshot().context.index)) {
  actor.send({ type: 'traveller.save', values });
  await waitForSnapshot(actor, (snapshot) => !snapshot.matches({ reviewing: { form: 'saving' } }));
}

/** Save the open traveller and let the next form open (0.5 s on the simulated clock). */
async function saveAndNext(started: Started) {
  await save(started);
  expect(started.actor.getSnapshot().matches({ reviewing: { form: 'closing' } })).toBe(true);
  started.clock.increment(NEXT_TRAVELLER_DELAY_MS);
}

describe('starting and loading', () => {
  it('a stored thank-you flag ends the step at once, without loading', async () => {
    const { actor, calls } = start(reviewInput({ thankYou: true }));
    await settle();
    expect(selectOutcome(actor.getSnapshot())).toEqual({ type: 'finished' });
    expect(calls.load).toEqual([]);
  });

  it('loads nothing without a lead, and waits for the journey', async () => {
    const { actor, calls } = start(reviewInput({ uuid: null }));
    await settle();
    expect(actor.getSnapshot().value).toBe('noLead');
    expect(actor.getSnapshot().status).toBe('active');
    expect(calls.load).toEqual([]);
  });

  it('shows the wait message while loading', () => {
    const { actor } = start(reviewInput(), { load: () => new Promise(() => {}) });
    expect(selectViewState(actor.getSnapshot())).toBe('loading');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
  });

  it('reads the lead with its session id, language and page link', async () => {
    const { calls } = await ready(reviewInput({ lang: 'ar' }));
    expect(calls.load).toEqual([{ uuid: REVIEW_LEAD_UUID, sessionId: REVIEW_SESSION_UUID, lang: 'ar', link: REVIEW_LINK }]);
  });

  it('fails with load_failed when the lead cannot be read', async () => {
    const { actor } = await ready(undefined, { load: () => Promise.reject(REVIEW_FAILURES.network) });
    expect(selectViewState(actor.getSnapshot())).toBe('failed');
    expect(actor.getSnapshot().context.failure).toBe('load_failed');
  });

  it('a lead without travellers is a failed read', async () => {
    const data = reviewData();
    data.details.lead_details.travellers_info = [];
    const { actor } = await ready(undefined, { load: async () => data });
    expect(actor.getSnapshot().context.failure).toBe('load_failed');
  });

  it('ends planMissing when the lead has no chosen plan (get_invoice null)', async () => {
    const { actor, stored } = await ready(undefined, { load: async () => reviewData({ invoice: null }) });
    expect(selectOutcome(actor.getSnapshot())).toEqual({ type: 'planMissing' });
    expect(stored.length).toEqual([]);
  });

  it('reads the plan from the invoice, applies the spec §4 defaults and stores the traveller count', async () => {
    const { actor, stored } = await ready();
    const { context } = actor.getSnapshot();
    expect(selectViewState(actor.getSnapshot())).toBe('ready');
    expect(context.plan).toEqual({ providerId: 3, isApiPlan: 1, isFamily: true, sourceId: 422 });
    expect(context.invoice).toEqual(sampleInvoice());
    expect(context.customer?.name).toBe('Rania Haddad');
    expect(context.options?.titles).toHaveLength(3);
    expect(context.whatsappTemplate).toContain(REVIEW_LINK);
    const [principal, spouse, child] = context.travellers;
    // The principal's names from the full name; relationship principal; residence Lebanon (provider 3, from Lebanon).
    expect(principal).toMatchObject({ id: 61, saved: false, values: { first_name: 'Rania', last_name: 'Haddad', relationship_type_id: 5, country_id: 422 } });
    // Provider 3: a later traveller older than 17 is the spouse; a child gets no relationship yet.
    expect(spouse!.values).toMatchObject({ first_name: null, relationship_type_id: 1, country_id: 422, dob: '1987-06-15' });
    expect(child!.values).toMatchObject({ relationship_type_id: null, country_id: 422 });
    expect(stored).toEqual({ length: [3], index: [0] });
  });
});

describe('resuming', () => {
  it('a reload resumes at the stored traveller, with the saved travellers filled in', async () => {
    const started = await ready(reviewInput({ storedIndex: 2 }), { load: async () => reviewData({ saved: [0, 1] }) });
    expect(index(started)).toBe(2);
    expect(started.stored.index).toEqual([2]);
    const { travellers } = started.actor.getSnapshot().context;
    expect(travellers.map((traveller) => traveller.saved)).toEqual([true, true, false]);
    expect(travellers[1]!.values).toEqual(travellerValues(1));
  });

  it('a stored index past a traveller not saved yet resumes at that traveller', async () => {
    const started = await ready(reviewInput({ storedIndex: 2 }), { load: async () => reviewData({ saved: [0] }) });
    expect(index(started)).toBe(1);
    expect(started.stored.index).toEqual([1]);
  });

  it.each([
    [9, [0, 1, 2], 2],
    [-3, [0, 1, 2], 0],
    [1.5, [], 0],
    [1, [0, 1, 2], 1],
  ])('stored index %s with saved %j opens traveller %i', async (storedIndex, saved, expected) => {
    const started = await ready(reviewInput({ storedIndex }), { load: async () => reviewData({ saved }) });
    expect(index(started)).toBe(expected);
  });
});

describe('the traveller loop', () => {
  it('Previous is refused on the first traveller', async () => {
    const { actor, stored } = await ready();
    expect(actor.getSnapshot().can({ type: 'traveller.previous' })).toBe(false);
    actor.send({ type: 'traveller.previous' });
    expect(actor.getSnapshot().context.index).toBe(0);
    expect(stored.index).toEqual([0]);
  });

  it('sends the open traveller with its id, the lead, the agent and the plan insurer; extra keys are dropped', async () => {
    const started = await ready(reviewInput({ agentId: 101, lang: 'ar' }));
    await save(started, { ...travellerValues(0), marital_status_id: 2 } as ReturnType<typeof travellerValues>);
    expect(started.calls.save).toEqual([
      {
        uuid: REVIEW_LEAD_UUID,
        sessionId: REVIEW_SESSION_UUID,
        agentId: 101,
        insuranceId: 3,
        lang: 'ar',
        traveller: { id: 61, ...travellerValues(0) },
      },
    ]);
  });

  it('while saving, the form stays open and busy; saved, it closes and the next opens after 0.5 s', async () => {
    let finish: (result: SaveTravellerResult) => void = () => {};
    const { actor, clock, stored } = await ready(undefined, { save: () => new Promise((resolve) => (finish = resolve)) });
    actor.send({ type: 'traveller.save', values: travellerValues(0) });
    expect(selectSaving(actor.getSnapshot())).toBe(true);
    expect(selectFormOpen(actor.getSnapshot())).toBe(true);
    expect(actor.getSnapshot().can({ type: 'traveller.previous' })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'traveller.save', values: travellerValues(0) })).toBe(false);

    finish(savedResult(0));
    await waitForSnapshot(actor, (snapshot) => !snapshot.hasTag('editing'));
    expect(selectFormOpen(actor.getSnapshot())).toBe(false);
    expect(selectSaving(actor.getSnapshot())).toBe(false);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    // Saved with what was sent.
    expect(actor.getSnapshot().context.travellers[0]).toEqual({ id: 61, values: travellerValues(0), saved: true });
    expect(actor.getSnapshot().context.submitted).toBeNull();

    clock.increment(NEXT_TRAVELLER_DELAY_MS - 1);
    expect(actor.getSnapshot().context.index).toBe(0);
    expect(selectFormOpen(actor.getSnapshot())).toBe(false);
    clock.increment(1);
    expect(actor.getSnapshot().context.index).toBe(1);
    expect(selectFormOpen(actor.getSnapshot())).toBe(true);
    expect(selectCurrentTraveller(actor.getSnapshot())).toMatchObject({ id: 62, index: 1, number: 2, saved: false });
    expect(stored.index).toEqual([0, 1]);
  });

  it('the last traveller saved completes the step at once (checkout), without the 0.5 s pause that opens a next form', async () => {
    const started = await ready();
    await saveAndNext(started);
    await saveAndNext(started);
    await save(started);
    const snapshot = started.actor.getSnapshot();
    expect(selectOutcome(snapshot)).toEqual({ type: 'completed' });
    expect(reviewOutcomeEvent(selectOutcome(snapshot)!)).toEqual({ type: 'review.completed' });
    expect(snapshot.context.travellers.every((traveller) => traveller.saved)).toBe(true);
    expect(started.calls.save.map((call) => call.traveller.id)).toEqual([61, 62, 63]);
    expect(started.stored.index).toEqual([0, 1, 2]);
  });

  it('one traveller: saving it completes the step', async () => {
    const started = await ready(undefined, { load: async () => reviewData({ count: 1 }) });
    await save(started);
    expect(selectOutcome(started.actor.getSnapshot())).toEqual({ type: 'completed' });
  });

  it('the last traveller saved leaves no draft behind', async () => {
    const started = await ready(undefined, { load: async () => reviewData({ count: 1 }) });
    await save(started);
    expect(selectOutcome(started.actor.getSnapshot())).toEqual({ type: 'completed' });
    expect(started.actor.getSnapshot().context.drafts).toEqual({});
  });

  it('starts with no WhatsApp text before the lead is read', () => {
    const actor = createActor(reviewMachine.provide({ actors: { loadReview: fromPromise(() => new Promise<ReviewData>(() => {})) } }), { input: reviewInput() }).start();
    expect(actor.getSnapshot().context.whatsappTemplate).toBe('');
    actor.stop();
  });

  it("run without the web's calls (loadReview), the read fails into the error view, not a crash", async () => {
    const actor = createActor(reviewMachine, { input: reviewInput() }).start();
    await waitForSnapshot(actor, (snapshot) => !snapshot.matches('loading'));
    expect(actor.getSnapshot().status).toBe('active');
    expect(actor.getSnapshot().matches('failed')).toBe(true);
  });

  it('Previous opens the traveller before with its saved values, and stores the index', async () => {
    const started = await ready();
    await saveAndNext(started);
    started.actor.send({ type: 'traveller.previous' });
    expect(index(started)).toBe(0);
    expect(selectCurrentTraveller(started.actor.getSnapshot())!.values).toEqual(travellerValues(0));
    expect(started.stored.index).toEqual([0, 1, 0]);
  });

  it('decision: saving an earlier traveller again (after Previous) opens the next one, not the end', async () => {
    const started = await ready(reviewInput({ storedIndex: 2 }), { load: async () => reviewData({ saved: [0, 1] }) });
    started.actor.send({ type: 'traveller.previous' });
    started.actor.send({ type: 'traveller.previous' });
    expect(index(started)).toBe(0);
    await saveAndNext(started);
    expect(index(started)).toBe(1);
    expect(started.actor.getSnapshot().status).toBe('active');
    expect(started.stored.index).toEqual([2, 1, 0, 1]);
  });
});

describe('refused saves', () => {
  it('error "dob" opens the DOB dialog with the server message and keeps what was typed', async () => {
    const started = await ready(undefined, { save: async () => DOB_RESULT });
    const typed = { ...travellerValues(0), dob: '1985-03-03', middle_name: 'Nour' };
    await save(started, typed);
    const snapshot = started.actor.getSnapshot();
    expect(selectDobDialog(snapshot)).toEqual({ open: true, message: DOB_MESSAGE });
    expect(selectFormOpen(snapshot)).toBe(true);
    expect(selectCurrentTraveller(snapshot)!.values).toEqual(typed);
    expect(snapshot.context.travellers[0]!.saved).toBe(false);

    started.actor.send({ type: 'dob.dismiss' });
    expect(selectDobDialog(started.actor.getSnapshot())).toEqual({ open: false, message: null });
    expect(selectCurrentTraveller(started.actor.getSnapshot())!.values).toEqual(typed);
    expect(started.actor.getSnapshot().matches({ reviewing: { form: 'editing' } })).toBe(true);
  });

  it('"Update Details" in the DOB dialog ends the step for travel details', async () => {
    const started = await ready(undefined, { save: async () => DOB_RESULT });
    await save(started);
    started.actor.send({ type: 'dob.update' });
    const output = selectOutcome(started.actor.getSnapshot())!;
    expect(output).toEqual({ type: 'updateDetails' });
    expect(reviewOutcomeEvent(output)).toEqual({ type: 'review.updateDetails' });
  });

  it('422: the traveller field codes show on the form (unknown fields and codes are left out), with what was typed', async () => {
    const started = await ready(undefined, { save: () => Promise.reject(REVIEW_FAILURES.invalid) });
    const typed = { ...travellerValues(0), passport: 'RL100201' };
    await save(started, typed);
    const snapshot = started.actor.getSnapshot();
    expect(selectServerErrors(snapshot)).toEqual({ passport: 'passport_duplicate', gender_id: 'gender_required' });
    expect(selectSaveFailed(snapshot)).toBe(false);
    expect(selectCurrentTraveller(snapshot)!.values).toEqual(typed);
    expect(snapshot.matches({ reviewing: { form: 'editing' } })).toBe(true);
  });

  it('a save clears the previous server codes', async () => {
    let calls = 0;
    const started = await ready(undefined, { save: () => (calls++ === 0 ? Promise.reject(REVIEW_FAILURES.invalid) : new Promise(() => {})) });
    await save(started);
    started.actor.send({ type: 'traveller.save', values: travellerValues(0) });
    expect(selectServerErrors(started.actor.getSnapshot())).toEqual({});
  });

  it('422 without a traveller field is a failed save', async () => {
    const started = await ready(undefined, { save: () => Promise.reject(REVIEW_FAILURES.invalidLead) });
    await save(started);
    expect(selectSaveFailed(started.actor.getSnapshot())).toBe(true);
    expect(selectServerErrors(started.actor.getSnapshot())).toEqual({});
  });

  it.each(['planNotChosen', 'planChanged'] as const)('409 %s ends the step: back to the quotes', async (name) => {
    const started = await ready(undefined, { save: () => Promise.reject(REVIEW_FAILURES[name]) });
    await save(started);
    const output = selectOutcome(started.actor.getSnapshot())!;
    expect(output).toEqual({ type: 'planMissing' });
    expect(reviewOutcomeEvent(output)).toEqual({ type: 'review.planMissing' });
  });

  it.each(['network', 'server'] as const)('a %s failure flags saveFailed (system error dialog); dismiss clears it', async (name) => {
    let calls = 0;
    const started = await ready(undefined, { save: () => (calls++ === 0 ? Promise.reject(REVIEW_FAILURES[name]) : Promise.resolve(savedResult(0))) });
    await save(started);
    expect(selectSaveFailed(started.actor.getSnapshot())).toBe(true);
    expect(started.actor.getSnapshot().matches({ reviewing: { form: 'editing' } })).toBe(true);
    started.actor.send({ type: 'saveFailed.dismiss' });
    expect(selectSaveFailed(started.actor.getSnapshot())).toBe(false);
    await save(started);
    expect(started.actor.getSnapshot().context.travellers[0]!.saved).toBe(true);
  });

  it('a 409 for another reason is a failed save, not a lost plan', async () => {
    const other = { kind: 'rejected', status: 409, body: { status: 409, message: 'refused', data: { errors: { uuid: 'stage_too_low' } } } };
    const started = await ready(undefined, { save: () => Promise.reject(other) });
    await save(started);
    expect(selectSaveFailed(started.actor.getSnapshot())).toBe(true);
  });
});

describe('typing is kept until saved (issue 17)', () => {
  const typed = { ...travellerValues(1), first_name: 'Karim', middle_name: 'Sami', passport: 'LR7654321' };

  it("traveller 2's typing survives Previous then Proceed: the form opens again with it", async () => {
    const started = await ready();
    await saveAndNext(started);
    started.actor.send({ type: 'traveller.previous', values: typed });
    expect(index(started)).toBe(0);
    expect(selectCurrentTraveller(started.actor.getSnapshot())!.values).toEqual(travellerValues(0));
    await saveAndNext(started);
    expect(index(started)).toBe(1);
    expect(selectCurrentTraveller(started.actor.getSnapshot())!.values).toEqual(typed);
  });

  it('a refused save keeps what was typed through Previous then Proceed', async () => {
    let calls = 0;
    const started = await ready(undefined, {
      save: (input) => (input.traveller.id === 62 && calls++ === 0 ? Promise.reject(REVIEW_FAILURES.invalid) : Promise.resolve(savedResult(0))),
    });
    await saveAndNext(started);
    await save(started, typed);
    expect(selectServerErrors(started.actor.getSnapshot())).toMatchObject({ passport: 'passport_duplicate' });
    started.actor.send({ type: 'traveller.previous' });
    await saveAndNext(started);
    expect(selectCurrentTraveller(started.actor.getSnapshot())!.values).toEqual(typed);
  });

  it('a saved traveller drops its draft: the saved values are what it shows', async () => {
    const started = await ready();
    await saveAndNext(started);
    started.actor.send({ type: 'traveller.previous', values: typed });
    await saveAndNext(started);
    await save(started, { ...typed, middle_name: null });
    expect(started.actor.getSnapshot().context.drafts).toEqual({});
    expect(started.actor.getSnapshot().context.travellers[1]!.values).toEqual({ ...typed, middle_name: null });
  });

  it('drafts brought back by the language switch reload open in their travellers forms', async () => {
    const started = await ready(reviewInput({ storedIndex: 1, drafts: { 62: typed } }), { load: async () => reviewData({ saved: [0] }) });
    expect(index(started)).toBe(1);
    expect(selectCurrentTraveller(started.actor.getSnapshot())!.values).toEqual(typed);
  });
});

describe('agent e-mail share', () => {
  it('is refused without an agent', async () => {
    const { actor, calls } = await ready();
    expect(actor.getSnapshot().can({ type: 'share.email' })).toBe(false);
    actor.send({ type: 'share.email' });
    await settle();
    expect(calls.email).toEqual([]);
  });

  it('needs both an agent and the page link: either alone is refused', async () => {
    for (const input of [reviewInput({ agentId: 101, link: null }), reviewInput({ agentId: null, link: REVIEW_LINK })]) {
      const { actor, calls } = await ready(input);
      expect(actor.getSnapshot().can({ type: 'share.email' })).toBe(false);
      actor.send({ type: 'share.email' });
      await settle();
      expect(calls.email).toEqual([]);
    }
  });

  it('sends the page link as review-details and shows the toast for 5 s, beside the form', async () => {
    const { actor, calls, clock } = await ready(reviewInput({ agentId: 101 }));
    actor.send({ type: 'share.email' });
    await waitForSnapshot(actor, (snapshot) => snapshot.context.emailSent);
    expect(calls.email).toEqual([{ uuid: REVIEW_LEAD_UUID, lang: 'en', agentId: 101, link: REVIEW_LINK, pagename: 'review-details' }]);
    expect(selectFormOpen(actor.getSnapshot())).toBe(true);
    clock.increment(EMAIL_TOAST_MS - 1);
    expect(actor.getSnapshot().context.emailSent).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().context.emailSent).toBe(false);
  });

  it('a failed share is silent and stops loading', async () => {
    const { actor } = await ready(reviewInput({ agentId: 101 }), { email: () => Promise.reject(REVIEW_FAILURES.server) });
    actor.send({ type: 'share.email' });
    expect(actor.getSnapshot().matches({ reviewing: { share: 'sending' } })).toBe(true);
    await waitForSnapshot(actor, (snapshot) => snapshot.matches({ reviewing: { share: 'idle' } }));
    expect(actor.getSnapshot().context.emailSent).toBe(false);
  });
});
