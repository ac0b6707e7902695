import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { DirectionProvider, MantineProvider } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { activateLanguage } from '../../../i18n/locale';
import { AnnouncerProvider } from '../../../shell/announcer';
import { TravelDetailsForm } from '../travel-details-form';
import { blankValues } from '../../../../../machines/travel-details/travel-details.payload';
import { EMPTY_PREFILL } from '../../../../../machines/travel-details/travel-details.model';
import type { TravelDetailsReference, TravelDetailsValues } from '../../../../../machines/travel-details/travel-details.types';

/**
 * The travel details form's focus and announcements (issue 21, WCAG 2.4.3 and 4.1.3): the
 * traveller stepper says what it did, a date field is not touched by a visit to its own
 * calendar, and a calendar opened before its code arrived takes the focus when it does. Proceed
 * keeping the focus while saving is in travel-details-form.test.tsx.
 */

/** The calendar's lazy chunk arrives when a test calls `arrive`; then for every test after it. */
const chunk = vi.hoisted(() => {
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  return { arrived, arrive: () => arrive() };
});
vi.mock('./date-picker-panel', async (importOriginal) => {
  await chunk.arrived;
  return importOriginal();
});

const TODAY = '2026-06-15';
const reference: TravelDetailsReference = {
  countries: [{ value: '250', label: 'France' }],
  phoneCodes: [{ value: '+961', label: '+961 Lebanon' }],
  maxTravellers: 3,
  familyChildMaxAge: 18,
};
const INVALID_DOB = 'Please select correct date of birth';

function renderForm(overrides: Partial<TravelDetailsValues> = {}) {
  render(
    <I18nProvider i18n={i18n}>
      <DirectionProvider initialDirection="ltr" detectDirection={false}>
        <MantineProvider env="test">
          <AnnouncerProvider>
            <TravelDetailsForm
              initialValues={{ ...blankValues(EMPTY_PREFILL), ...overrides }}
              reference={reference}
              today={TODAY}
              serverErrors={{}}
              submitting={false}
              onSubmit={vi.fn()}
            />
          </AnnouncerProvider>
        </MantineProvider>
      </DirectionProvider>
    </I18nProvider>,
  );
}

/** The input a label names (Mantine's required labels end in an aria-hidden " *"). */
function labelled(label: string): HTMLInputElement {
  const inputs = screen.getAllByLabelText(new RegExp(`^${label.replace(/[()]/g, '\\$&')}( \\*)?$`)).filter((element) => element.tagName === 'INPUT');
  if (inputs.length !== 1) throw new Error(`${inputs.length} inputs labelled ${label}`);
  return inputs[0] as HTMLInputElement;
}
const button = (name: string) => screen.getByRole('button', { name });
const said = () => screen.getByTestId('announcer').textContent;
/** The error texts tied to a field through aria-describedby. */
const errorsOf = (input: HTMLElement) =>
  (input.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .filter((id) => id.endsWith('-error'))
    .map((id) => document.getElementById(id)?.textContent ?? '');
/** Moves the focus as Tab does: the blur names where it goes. */
function tabFrom(from: HTMLElement, to: HTMLElement) {
  fireEvent.blur(from, { relatedTarget: to });
  to.focus();
}
const focusedDay = () => (document.activeElement as HTMLElement | null)?.dataset.date ?? null;

beforeAll(async () => {
  await activateLanguage('en');
});
afterEach(() => cleanup());

// First in the file: the chunk, once arrived, stays loaded for the tests after it.
describe('a calendar opened before its code arrived (issue 21)', () => {
  it('takes the focus, on the day meant to have it, once its code arrives', async () => {
    renderForm({ start_date: '2026-06-22' });
    const calendar = button('Start date: calendar');
    calendar.focus();
    fireEvent.click(calendar);
    expect(calendar.getAttribute('aria-expanded')).toBe('true');
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(focusedDay()).toBeNull();
    chunk.arrive();
    await waitFor(() => expect(focusedDay()).toBe('2026-06-22'));
  });
});

describe('the traveller stepper says what it did (WCAG 4.1.3, issue 21)', () => {
  it('announces the traveller added, and keeps the focus on the button so it can be pressed again', async () => {
    renderForm();
    const add = button('Add a traveller');
    add.focus();
    fireEvent.click(add);
    expect(labelled('Traveller 2')).toBeTruthy();
    await waitFor(() => expect(said()).toBe('Traveller 2 added'));
    expect(document.activeElement).toBe(add);
    fireEvent.click(add);
    await waitFor(() => expect(said()).toBe('Traveller 3 added'));
  });

  it('announces the traveller removed', async () => {
    renderForm();
    fireEvent.click(button('Add a traveller'));
    fireEvent.click(button('Add a traveller'));
    fireEvent.click(button('Remove a traveller'));
    await waitFor(() => expect(said()).toBe('Traveller 3 removed'));
    expect(screen.queryByLabelText(/^Traveller 3/)).toBeNull();
  });

  it('says nothing when a press at a limit changes nothing', async () => {
    renderForm();
    fireEvent.click(button('Remove a traveller'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 200)));
    expect(said()).toBe('');
  });
});

describe("a date field and its own calendar are one stop for 'touched' (issue 21)", () => {
  it('tabbing from an empty date field to its calendar button shows no error; leaving the button does', async () => {
    renderForm();
    const dob = labelled('Traveller 1 (you)');
    const calendar = button('Traveller 1 (you): calendar');
    dob.focus();
    tabFrom(dob, calendar);
    expect(errorsOf(dob)).toEqual([]);
    const name = labelled('Full name');
    tabFrom(calendar, name);
    await waitFor(() => expect(errorsOf(dob)).toEqual([INVALID_DOB]));
  });

  it('leaving the empty field for another field still shows the error', async () => {
    renderForm();
    const dob = labelled('Traveller 1 (you)');
    dob.focus();
    tabFrom(dob, labelled('Full name'));
    await waitFor(() => expect(errorsOf(dob)).toEqual([INVALID_DOB]));
  });

  it('going into its calendar and back with Escape gives the focus back to its button and does not touch the field', async () => {
    renderForm();
    chunk.arrive();
    const dob = labelled('Traveller 1 (you)');
    const calendar = button('Traveller 1 (you): calendar');
    dob.focus();
    tabFrom(dob, calendar);
    fireEvent.click(calendar);
    const dialog = await screen.findByRole('dialog', { name: 'Traveller 1 (you): calendar' });
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    const inside = document.activeElement as HTMLElement;
    fireEvent.keyDown(inside, { key: 'Escape' });
    await waitFor(() => expect(document.activeElement).toBe(calendar));
    expect(errorsOf(dob)).toEqual([]);
  });
  it('a day taken with Enter gives the focus to the calendar button in the same task, so a Tab straight after goes on from it', async () => {
    renderForm({ start_date: '2026-06-22' });
    chunk.arrive();
    const calendar = button('Start date: calendar');
    calendar.focus();
    fireEvent.click(calendar);
    const dialog = await screen.findByRole('dialog', { name: 'Start date: calendar' });
    await waitFor(() => expect(focusedDay()).toBe('2026-06-22'));
    fireEvent.click(document.activeElement as HTMLElement);
    expect(document.activeElement).toBe(calendar);
    expect(dialog.contains(document.activeElement)).toBe(false);
    expect(labelled('Start date').value).toBe('22/06/2026');
  });
});
