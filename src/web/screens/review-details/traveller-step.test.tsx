import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DOB_RESULT, REVIEW_FAILURES, reviewData, sampleInvoice, savedResult } from '../../../../machines/review/review.model';
import type { SaveTravellerResult } from '../../../../machines/review/review.types';
import { activateLanguage } from '../../i18n/locale';
import { storeTripFinished } from '../../storage/finished-trip';
import { keepDraftForReload, takeReloadDraft } from '../../storage/reload-draft';
import { isReviewDrafts } from './review-reload-draft';
import { mountTravellerStep, type SaveTraveller } from '../../../../tests/support/mount-traveller-step';

/**
 * The review's traveller forms as a customer meets them (issue 17), over the real review
 * machine; only its calls to the server are stand-ins. Proceed works on the first press, and
 * what was typed into a traveller's form survives Previous, a refused save and a language switch.
 */

const mountReview = mountTravellerStep;

const form = () => screen.getByTestId('traveller-form');
const box = (label: string) => within(form()).getByRole('textbox', { name: label }) as HTMLInputElement;
const combo = (label: string) => within(form()).getByRole('combobox', { name: label }) as HTMLInputElement;
const title = () => screen.getByTestId('traveller-form-title').textContent;
const button = (name: string) => within(form()).getByRole('button', { name });

function type(input: HTMLInputElement, value: string) {
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

/** Opens a Mantine select by its label and clicks an option of its own list. */
function pick(label: string, option: string) {
  const input = combo(label);
  fireEvent.click(input);
  const list = document.getElementById(input.getAttribute('aria-controls') ?? '');
  if (!list) throw new Error(`${label} did not open its list`);
  fireEvent.click(within(list).getByRole('option', { name: option, hidden: true }));
}

/** Presses a button as a pointer does: the press, then the click (the press must not move the focus). */
function press(name: string): boolean {
  const target = button(name);
  const kept = fireEvent.mouseDown(target);
  fireEvent.mouseUp(target);
  fireEvent.click(target);
  return kept;
}

/** Waits for traveller `number`'s form (the saved one closes, the next opens 0.5 s later). */
const opened = (number: number) => waitFor(() => expect(title()).toBe(number === 1 ? 'Traveller 1 (you)' : `Traveller ${number}`));

/** Traveller 2 of the provider-3 family, typed in: title, names, gender, nationality and passport. */
function typeTravellerTwo(passport = 'LR7654321') {
  pick('Title', 'Mr');
  type(box('First name'), 'Karim');
  type(box('Middle name (optional)'), 'Sami');
  type(box('Last name'), 'Haddad');
  pick('Gender', 'Male');
  pick('Nationality', 'Lebanese');
  type(box('Passport number'), passport);
}

function expectTravellerTwoTyped(passport = 'LR7654321') {
  expect(combo('Title').value).toBe('Mr');
  expect(box('First name').value).toBe('Karim');
  expect(box('Middle name (optional)').value).toBe('Sami');
  expect(box('Last name').value).toBe('Haddad');
  expect(combo('Gender').value).toBe('Male');
  expect(box('Passport number').value).toBe(passport);
}

beforeAll(async () => {
  await activateLanguage('en');
});
afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

describe('Proceed on review (issue 17 item 1)', () => {
  it('one press of Proceed after clearing the first name shows every error and focuses the first invalid field', async () => {
    await mountReview(reviewData({ count: 1, invoice: sampleInvoice({ insurance_provider_id: 1000 }) }));
    const first = box('First name');
    first.focus();
    fireEvent.change(first, { target: { value: '' } });

    // The press keeps the focus in the field, so no error line appears and moves the button away.
    expect(press('Proceed')).toBe(false);

    expect(within(form()).getByText('Please select type')).toBeTruthy();
    expect(within(form()).getByText('Please enter your first name, last name or full name')).toBeTruthy();
    expect(within(form()).getByText('Please enter passport number')).toBeTruthy();
    expect(document.activeElement).toBe(combo('Title'));
  });

  it('a symbol typed into the passport is kept and says why it is refused', async () => {
    await mountReview(reviewData({ count: 1, invoice: sampleInvoice({ insurance_provider_id: 1000 }) }));
    const passport = box('Passport number');
    fireEvent.change(passport, { target: { value: 'ab#123' } });
    expect(passport.value).toBe('AB#123');
    expect(within(form()).getByText('Only characters a-z and 0-9 are allowed')).toBeTruthy();
  });
});

describe("a traveller's typing is kept until it is saved (issue 17 item 8)", () => {
  it('traveller 2 typed, Previous, then Proceed: traveller 2 opens with what was typed', async () => {
    await mountReview(reviewData({ saved: [0] }), { storedIndex: 1 });
    await opened(2);
    typeTravellerTwo();
    press('Previous');
    await opened(1);
    expect(box('First name').value).toBe('Rania');
    press('Proceed');
    await opened(2);
    expectTravellerTwoTyped();
  });

  it('a save the server refuses (duplicate passport), then Previous and Proceed: traveller 2 keeps what was typed', async () => {
    const calls: number[] = [];
    await mountReview(reviewData({ saved: [0] }), { storedIndex: 1 }, async ({ traveller }) => {
      calls.push(traveller.id);
      if (traveller.id === 62) throw REVIEW_FAILURES.invalid;
      return savedResult(0);
    });
    await opened(2);
    typeTravellerTwo('LR1112223');
    press('Proceed');
    await waitFor(() => expect(within(form()).getByText('Another traveller on this policy has this passport number')).toBeTruthy());
    expectTravellerTwoTyped('LR1112223');
    press('Previous');
    await opened(1);
    press('Proceed');
    await opened(2);
    expectTravellerTwoTyped('LR1112223');
    expect(calls).toEqual([62, 61]);
  });

  it('a language switch mid-review: after the reload every traveller comes back with what was typed', async () => {
    const data = reviewData({ saved: [0] });
    const actor = await mountReview(data, { storedIndex: 1 });
    await opened(2);
    typeTravellerTwo();
    press('Previous');
    await opened(1);
    type(box('Middle name (optional)'), 'Nour');

    // What the language switch does: keep the draft, then the page reloads.
    keepDraftForReload('/review-details');
    act(() => actor.stop());
    cleanup();

    const drafts = takeReloadDraft(isReviewDrafts, '/review-details');
    await mountReview(data, { storedIndex: 0, drafts: drafts ?? {} });
    await opened(1);
    expect(box('Middle name (optional)').value).toBe('Nour');
    press('Proceed');
    await opened(2);
    expectTravellerTwoTyped();
  });
});

describe('a reload on review (issue 38)', () => {
  it('F5 mid-review keeps what was typed, as the language switch does: the page going away stores it, the review takes it back', async () => {
    const data = reviewData({ saved: [0] });
    const actor = await mountReview(data, { storedIndex: 1 });
    await opened(2);
    typeTravellerTwo();

    // What a reload does: the page goes away (pagehide), then loads again. No switch is pressed.
    window.history.replaceState(null, '', '/review-details');
    act(() => void window.dispatchEvent(new Event('pagehide')));
    act(() => actor.stop());
    cleanup();

    const drafts = takeReloadDraft(isReviewDrafts, '/review-details');
    expect(drafts).not.toBeNull();
    await mountReview(data, { storedIndex: 1, drafts: drafts ?? {} });
    await opened(2);
    expectTravellerTwoTyped();
  });

  it('nothing is kept once the review has left the screen, and a trip finished drops a kept draft', async () => {
    const actor = await mountReview(reviewData({ saved: [0] }), { storedIndex: 1 });
    await opened(2);
    typeTravellerTwo();
    act(() => actor.stop());
    cleanup();
    window.dispatchEvent(new Event('pagehide'));
    expect(sessionStorage.getItem('reload_draft')).toBeNull();

    sessionStorage.setItem('reload_draft', JSON.stringify({ path: '/review-details', values: {} }));
    storeTripFinished('2f1c9a54-8d1e-4c55-9d43-5f6a2b7c8e90');
    expect(sessionStorage.getItem('reload_draft')).toBeNull();
  });
});

describe('focus and announcements on review (issue 21)', () => {
  /** A save that answers when the test says so. */
  function heldSave(result: SaveTravellerResult) {
    let answer = () => {};
    const save: SaveTraveller = () => new Promise((resolve) => (answer = () => resolve(result)));
    return { save, answer: () => answer() };
  }

  it('Proceed keeps the focus while the save runs: it is aria-disabled, not disabled', async () => {
    const held = heldSave(savedResult(0));
    await mountReview(reviewData({ saved: [0] }), {}, held.save);
    const proceed = button('Proceed') as HTMLButtonElement;
    proceed.focus();
    press('Proceed');
    await waitFor(() => expect(proceed.getAttribute('aria-disabled')).toBe('true'));
    expect(proceed.disabled).toBe(false);
    expect(document.activeElement).toBe(proceed);
    held.answer();
    await opened(2);
  });

  it('once traveller 1 is saved the focus waits on the "saved" notice, then goes to traveller 2\'s title, never to <body>', async () => {
    await mountReview(reviewData({ saved: [0] }));
    button('Proceed').focus();
    press('Proceed');
    const notice = await screen.findByTestId('traveller-saved');
    await waitFor(() => expect(document.activeElement).toBe(notice));
    expect(notice.getAttribute('tabindex')).toBe('-1');
    await opened(2);
    expect(document.activeElement).toBe(screen.getByTestId('traveller-form-title'));
  });

  it('the DOB dialog, closed, gives the focus back to Proceed', async () => {
    await mountReview(reviewData({ saved: [0] }), {}, async () => DOB_RESULT);
    const proceed = button('Proceed');
    proceed.focus();
    press('Proceed');
    const dialog = await screen.findByTestId('dob-error-dialog');
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(document.activeElement).toBe(button('Proceed')));
  });

  it('issue 38: the DOB dialog opens with the focus on its action (Update Details), not on its X', async () => {
    await mountReview(reviewData({ saved: [0] }), {}, async () => DOB_RESULT);
    button('Proceed').focus();
    press('Proceed');
    const dialog = await screen.findByTestId('dob-error-dialog');
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByTestId('dob-update-details')));
  });

  it('a saved traveller is announced with its number, the count and the name as saved', async () => {
    await mountReview(reviewData({ saved: [0] }));
    press('Proceed');
    await waitFor(() => expect(screen.getByTestId('announcer').textContent).toBe('Traveller 1 of 3 saved: Rania Haddad'));
  });

  it('a select says it is open while its list shows (aria-expanded, aria-controls)', async () => {
    await mountReview(reviewData({ count: 1 }));
    const title = combo('Title');
    title.focus();
    expect(title.getAttribute('aria-expanded')).toBe('false');
    fireEvent.keyDown(title, { key: 'ArrowDown', code: 'ArrowDown' });
    await waitFor(() => expect(title.getAttribute('aria-expanded')).toBe('true'));
    expect(document.getElementById(title.getAttribute('aria-controls') ?? '')?.getAttribute('role')).toBe('listbox');
    fireEvent.keyDown(title, { key: 'Escape', code: 'Escape' });
    await waitFor(() => expect(title.getAttribute('aria-expanded')).toBe('false'));
  });

  it('the review instructions are a note, not an alert', async () => {
    await mountReview(reviewData({ count: 1 }));
    expect(screen.getByTestId('traveller-instructions').getAttribute('role')).toBe('note');
    expect(within(form()).queryAllByRole('alert')).toEqual([]);
  });
});
