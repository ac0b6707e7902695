import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { DirectionProvider, MantineProvider } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { addDays } from '../../../../contract/dates';
import { activateLanguage } from '../../../i18n/locale';
import { TravelDetailsForm } from '../travel-details-form';
import { blankValues } from '../../../../../machines/travel-details/travel-details.payload';
import { EMPTY_PREFILL } from '../../../../../machines/travel-details/travel-details.model';
import type { TravelDetailsReference, TravelDetailsValues } from '../../../../../machines/travel-details/travel-details.types';

/**
 * The travel details form's widgets for a keyboard and a screen reader (issue 21, WCAG 2.2):
 * the destinations' pills, the field's required state and active option, and the date fields'
 * format hint. The Chromium side is tests/e2e/form-access.test.ts.
 */

const TODAY = '2026-06-15';
const reference: TravelDetailsReference = {
  countries: [
    { value: '250', label: 'France' },
    { value: '826', label: 'United Kingdom' },
    { value: '784', label: 'United Arab Emirates' },
    { value: '380', label: 'Italy' },
  ],
  phoneCodes: [{ value: '+961', label: '+961 Lebanon' }],
  maxTravellers: 8,
  familyChildMaxAge: 18,
};
const FORMAT_HINT = 'Format DD/MM/YYYY, e.g. 25/12/1990';

function renderForm(overrides: Partial<TravelDetailsValues> = {}) {
  render(
    <I18nProvider i18n={i18n}>
      <DirectionProvider initialDirection="ltr" detectDirection={false}>
        <MantineProvider env="test">
          <TravelDetailsForm
            initialValues={{ ...blankValues(EMPTY_PREFILL), start_date: addDays(TODAY, 7), ...overrides }}
            reference={reference}
            today={TODAY}
            serverErrors={{}}
            submitting={false}
            onSubmit={vi.fn()}
          />
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

/** The texts an element's aria-describedby points to. */
const descriptionsOf = (input: HTMLElement) =>
  (input.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '');

/** The pills' remove buttons, in order. */
const removeButtons = () => within(labelled('Destinations').parentElement!).queryAllByRole('button');

beforeAll(async () => {
  await activateLanguage('en');
});
afterEach(() => cleanup());

describe('the destinations field, by keyboard and screen reader (issue 21)', () => {
  it("gives each chosen country's pill a remove button in the tab order, named by the country", () => {
    renderForm({ destination_id: [250, 826, 784] });
    const buttons = removeButtons();
    expect(buttons.map((button) => button.getAttribute('aria-label'))).toEqual(['Remove France', 'Remove United Kingdom', 'Remove United Arab Emirates']);
    for (const button of buttons) {
      expect(button.tabIndex).toBe(0);
      expect(button.closest('[aria-hidden="true"]')).toBeNull();
    }
  });

  it('removes a middle country by its button and puts the focus on the button now in its place, in the same task', () => {
    renderForm({ destination_id: [250, 826, 784] });
    const middle = screen.getByRole('button', { name: 'Remove United Kingdom' });
    middle.focus();
    fireEvent.click(middle);
    // At once, in the click's own task: not a frame later, with the page holding the focus meanwhile.
    expect(removeButtons().map((button) => button.getAttribute('aria-label'))).toEqual(['Remove France', 'Remove United Arab Emirates']);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove United Arab Emirates' }));
  });

  it('puts the focus on the search field once the last country is removed', () => {
    renderForm({ destination_id: [250] });
    fireEvent.click(screen.getByRole('button', { name: 'Remove France' }));
    expect(document.activeElement).toBe(labelled('Destinations'));
    expect(removeButtons()).toHaveLength(0);
  });

  it('is read as required, as the other required fields are', () => {
    renderForm();
    expect(labelled('Destinations').getAttribute('aria-required')).toBe('true');
    expect(labelled('Start date').required).toBe(true);
  });

  it('after a country is chosen by keyboard, aria-activedescendant names an option in the list, the one Enter would choose', async () => {
    renderForm();
    const input = labelled('Destinations');
    act(() => input.focus());
    fireEvent.change(input, { target: { value: 'i' } });
    fireEvent.keyDown(input, { key: 'ArrowDown', code: 'ArrowDown' });
    const named = () => input.getAttribute('aria-activedescendant');
    await waitFor(() => expect(named()).toBeTruthy());
    const chosen = document.getElementById(named()!)!.textContent;
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter' });
    await waitFor(() => expect(screen.getByRole('button', { name: `Remove ${chosen}` })).toBeTruthy());
    // Never an element that has gone: the option Enter would choose next, or nothing.
    const active = () => {
      const id = named();
      const option = id === null ? null : document.getElementById(id);
      return id === null ? null : { role: option?.getAttribute('role'), highlighted: option?.hasAttribute('data-combobox-selected'), text: option?.textContent };
    };
    await waitFor(() => expect([null, { role: 'option', highlighted: true, text: expect.any(String) }]).toContainEqual(active()));
    // Typing filters the list: the attribute follows the highlight or goes.
    fireEvent.change(input, { target: { value: 'fra' } });
    await waitFor(() => expect([null, { role: 'option', highlighted: true, text: 'France' }]).toContainEqual(active()));
  });
});

describe('the date fields show their format as a description (issue 21, WCAG 3.3.2)', () => {
  it('the trip dates and each date of birth are described by the DD/MM/YYYY hint through aria-describedby', () => {
    renderForm();
    for (const label of ['Start date', 'End date', 'Traveller 1 (you)']) expect(descriptionsOf(labelled(label))).toContain(FORMAT_HINT);
  });

  it("keeps a field's own description beside the hint", () => {
    renderForm({ trip_type: 2 });
    const [description] = descriptionsOf(labelled('End date'));
    expect(description).toContain('Annual cover ends 12 months after the start date, less one day.');
    expect(description).toContain(FORMAT_HINT);
  });
});
