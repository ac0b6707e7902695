import { i18n } from '@lingui/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { callBackMachine } from '../../machines/call-back/call-back.machine';
import { callBackPathLabel, createCallBackTestModel, serializeCallBackModelState, type CallBackModelPath, CALL_BACK_FORM, CALL_BACK_VALUES, callBackInput, callBackModelEvents, type CallBackModelEvent } from '../../machines/call-back/call-back.model';
import { toCallBackPayload } from '../../machines/call-back/call-back.payload';
import type { CallBackInput } from '../../machines/call-back/call-back.types';
import { pathsCoveringTransitions, recordModelCoverage } from '../../machines/model-tooling/model-coverage';
import { expectSameSnapshot, testPathOnActor, withPathIds } from '../../machines/model-tooling/model-replay';
import { SESSION_UUID } from '../../machines/travel-details/travel-details.model';
import { countryCodesEndpoint } from '../../src/contract/reference.endpoints';
import { requestCallBackEndpoint } from '../../src/contract/quote.endpoints';
import { activateLanguage } from '../../src/web/i18n/locale';
import { TRAVEL_DETAILS_MESSAGES } from '../../src/web/i18n/validation-messages';
import { configureHttpClient } from '../../src/web/services/http-client';
import { localStore } from '../../src/web/storage/local-store';
import { renderApp } from '../support/render-app';
import { watchStepActor } from './screen-support';
import { deferredApi, type DeferredApi } from './deferred-api';

/**
 * The call-back step's model (machines/call-back/call-back.model.test.ts) run on the rendered app at
 * /request-call-back (issue 20): the same generated paths, but each call outcome is the answer
 * of the API at the ky client (deferred-api.ts) to the request the screen made, and each submit
 * is a click on the screen's "Call me back" after typing the sample's values into its fields.
 * After every step the live step actor must be where the model is, the screen must show it, and
 * a stored request must have taken the journey to /call-back. Nothing is stubbed but the server.
 */

const inspect = recordModelCoverage(import.meta.url);

const serializeState = serializeCallBackModelState;
const labelOf = callBackPathLabel;
const createModel = createCallBackTestModel;

type Snapshot = SnapshotFrom<typeof callBackMachine>;
type Path = CallBackModelPath;

const STATES = ['loading', 'editing', 'sending', 'failed', 'sent'] as const;
const COUNTRY_CODES = countryCodesEndpoint.path;
const REQUEST_CALL_BACK = requestCallBackEndpoint.path;

/**
 * The bare-actor model's two cases, as the screen opened by its URL starts them: the journey
 * gives the reason `customer_request` there (`no_online_quote` is the reason of /thank-you's
 * button), so the model runs with that reason and the live context can equal the model's.
 */
const INPUTS: Record<string, CallBackInput> = {
  visitor: callBackInput({ leadUuid: null, reason: 'customer_request' }),
  'agent, lead': callBackInput({ agentId: 101, reason: 'customer_request' }),
};

let api: DeferredApi;

beforeAll(async () => {
  await activateLanguage('en');
});
beforeEach(() => {
  api = deferredApi();
  configureHttpClient({ baseUrl: 'http://x.model.test', signingKey: 'model-test', fetch: api.fetch });
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

const field = (label: RegExp) => screen.getByLabelText(label) as HTMLInputElement;
const FIELDS = { name: /Full name/, phone_number: /Phone number/, email: /^Email/ } as const;
/** A value as its field shows it: an e-mail input's value loses its outer spaces (HTML's value sanitization). */
const asShown = (key: string, value: string) => (key === 'email' ? value.trim() : value);

async function runOnScreen(path: Path, input: CallBackInput): Promise<number> {
  // The form loads from the details stored by travel details (call-back.actors.ts): the sample's
  // values, so the loaded form is the model's CALL_BACK_FORM. No lead is read while they are stored.
  localStore.setJson('personal_details', CALL_BACK_VALUES);
  const { watch, step } = watchStepActor(inspect, callBackMachine.id);
  const { router, actor: journey } = renderApp(
    '/request-call-back',
    { path: '/request-call-back', uuid: input.leadUuid, sessionId: input.leadUuid ? SESSION_UUID : null, agentId: input.agentId === null ? null : String(input.agentId) },
    { inspect: watch },
  );
  const live = () => {
    return step().getSnapshot() as Snapshot;
  };
  let checked = 0;

  /** What the screen shows for the model's state. */
  const expectShown = (model: Snapshot) => {
    const { context } = model;
    if (model.matches('loading')) {
      expect(screen.getByTestId('call-back-loading')).toBeTruthy();
      expect(api.heldPaths()).toContain(COUNTRY_CODES);
      return;
    }
    if (model.matches('failed')) {
      expect(screen.getByText('An error occurred')).toBeTruthy();
      expect(screen.queryByTestId('call-back-form')).toBeNull();
      return;
    }
    if (model.matches('sent')) {
      // The journey took the stored request to the thanks, and this browser remembers it.
      expect(journey.getSnapshot().value).toBe('callBack');
      expect(router.state.location.pathname).toBe('/call-back');
      expect(screen.getByTestId('screen-call-back')).toBeTruthy();
      expect(screen.getByTestId('call-back-steps').textContent).toContain('Step 2 of 2');
      expect(localStore.get('callBack')).toBe('1');
      return;
    }
    expect(router.state.location.pathname).toBe('/request-call-back');
    expect(localStore.get('callBack')).toBeNull();
    const form = screen.getByTestId('call-back-form');
    const submit = within(form).getByRole('button', { name: 'Call me back' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(model.matches('sending'));
    // What the form shows: the loaded values, or after a refusal what was typed.
    const shown = context.submitted ?? context.values;
    for (const [key, label] of Object.entries(FIELDS)) expect(field(label).value).toBe(asShown(key, shown[key as keyof typeof FIELDS]));
    const alert = screen.queryByTestId('call-back-failure');
    if (context.failure === null) expect(alert).toBeNull();
    else if (context.failure === 'rate_limited') expect(alert?.textContent).toContain('Please wait a few minutes and try again.');
    else if (context.failure === 'agent_unknown') expect(alert?.textContent).toBe(i18n._(TRAVEL_DETAILS_MESSAGES.agent_unknown));
    else expect(alert?.textContent).toContain('We could not send your request.');
    for (const [key, label] of Object.entries(FIELDS)) {
      const code = context.serverErrors[key as keyof typeof FIELDS];
      expect(field(label).getAttribute('aria-invalid') === 'true').toBe(Boolean(code));
      if (code) expect(screen.getByText(i18n._(TRAVEL_DETAILS_MESSAGES[code]))).toBeTruthy();
    }
  };

  const check = async (model: Snapshot) => {
    checked += 1;
    await waitFor(() => {
      expectSameSnapshot(live(), model);
      expectShown(model);
    });
    if (model.matches('sending')) {
      // The request the screen sent is the machine's payload of what was typed.
      await waitFor(() => expect(api.heldPaths()).toContain(REQUEST_CALL_BACK));
      const sent = api.requests.filter((request) => request.path === REQUEST_CALL_BACK).at(-1)!.body;
      expect(sent).toEqual(toCallBackPayload(live().context.submitted!, live().context));
    }
  };

  const perform = async (stepOfPath: { event: CallBackModelEvent }) => {
    const event = stepOfPath.event;
    // Not inside act(): answering waits for the request (waitFor), and fireEvent acts by itself.
    switch (event.type) {
      case 'xstate.done.actor.loadForm':
        await api.answer(COUNTRY_CODES, { codes: (event.output as typeof CALL_BACK_FORM).phoneCodes });
        break;
      case 'xstate.error.actor.loadForm':
        await api.failWith(COUNTRY_CODES, event.error);
        break;
      case 'xstate.done.actor.sendRequest':
        await api.answer(REQUEST_CALL_BACK, event.output);
        break;
      case 'xstate.error.actor.sendRequest':
        await api.failWith(REQUEST_CALL_BACK, event.error);
        break;
      case 'callBack.submit': {
        // Typed into the fields (the calling code is already the sample's), then "Call me back".
        for (const [key, label] of Object.entries(FIELDS)) {
          const value = event.values[key as keyof typeof FIELDS];
          if (field(label).value !== asShown(key, value)) fireEvent.change(field(label), { target: { value } });
        }
        fireEvent.click(screen.getByRole('button', { name: 'Call me back' }));
        break;
      }
      default:
        throw new Error(`no way to perform ${event.type} on the screen`);
    }
  };

  await testPathOnActor(path, { stop: () => undefined }, { states: STATES, check, samples: callBackModelEvents, perform });
  return checked;
}

describe.each(Object.entries(INPUTS))('call-back model on the rendered /request-call-back (API at the ky client): %s', (name, input) => {
  const model = createModel(input);
  const shortestPaths = model.getShortestPaths();

  it.each(withPathIds(`call-back screen ${name} shortest`, shortestPaths, labelOf))('%s', async (_label, path) => {
    expect(await runOnScreen(path, input)).toBe(path.steps.length);
  });

  it.each(withPathIds(`call-back screen ${name} transitions`, pathsCoveringTransitions(callBackMachine, model, shortestPaths, serializeState), labelOf))(
    'transition: %s',
    async (_label, path) => {
      expect(await runOnScreen(path, input)).toBe(path.steps.length);
    },
  );
});
