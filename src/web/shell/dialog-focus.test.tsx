import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { activateLanguage } from '../i18n/locale';
import { RecentLeadsDialog } from '../screens/traveller-details/recent-leads-dialog';
import { focusAfterDialog } from './dialog-focus';
import { SystemErrorDialog } from './system-error-dialog';

/**
 * Issue 21 (WCAG 2.4.3): a closed dialog gives the focus back to what opened it, or, when that is
 * gone or disabled, to the page's heading; never to <body>.
 */

beforeAll(() => activateLanguage('en'));
afterEach(cleanup);

/** The page around a dialog: its focusable h1 (as PageHeading renders it) and a button. */
function Page({ children, openerDisabled = false }: { children?: React.ReactNode; openerDisabled?: boolean }) {
  return (
    <I18nProvider i18n={i18n}>
      <MantineProvider env="test">
        <main>
          <h1 tabIndex={-1}>Travel details</h1>
          <button type="button" disabled={openerDisabled}>
            Opener
          </button>
        </main>
        {children}
      </MantineProvider>
    </I18nProvider>
  );
}

const heading = () => screen.getByRole('heading', { level: 1 });
const opener = () => screen.getByRole('button', { name: 'Opener' });

describe('focusAfterDialog', () => {
  it('focuses the opener while it is there and enabled', () => {
    render(<Page />);
    focusAfterDialog(opener());
    expect(document.activeElement).toBe(opener());
  });

  it("focuses the page's heading when the opener is disabled, gone or <body>", () => {
    render(<Page openerDisabled />);
    focusAfterDialog(opener());
    expect(document.activeElement).toBe(heading());
    opener().focus();
    focusAfterDialog(document.createElement('button'));
    expect(document.activeElement).toBe(heading());
    opener().focus();
    focusAfterDialog(document.body);
    expect(document.activeElement).toBe(heading());
  });
});

const LEAD = {
  bai_misc_lead_id: 1,
  stage: 1 as const,
  provider_name: null,
  destination_name: 'France',
  start_date: '2026-12-10',
  end_date: '2026-12-20',
  no_of_traveller: 1,
  last_visit: '2026-11-20',
  uuid_lead: '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a',
  lead_details: { trip_type: 1, inbound_outbound: true, destination_id: [75] },
} as never;

describe('dialogs give the focus back when they close', () => {
  it('the existing-leads chooser, opened with the page and gone after "Enter new details", leaves the focus on the heading', async () => {
    const view = render(
      <Page>
        <RecentLeadsDialog opened leads={[LEAD]} lang="en" onPick={() => {}} onOpenPolicy={() => {}} onNew={() => {}} />
      </Page>,
    );
    const dialog = await screen.findByTestId('recent-leads-dialog');
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    fireEvent.click(within(dialog).getByTestId('recent-leads-new'));
    // The chooser goes with the choice: the screen stops rendering it.
    view.rerender(<Page />);
    await waitFor(() => expect(document.activeElement).toBe(heading()));
  });

  it('the system error dialog, mounted open, gives the focus back to the control in use', async () => {
    const view = render(<Page />);
    opener().focus();
    // As the app does: the dialog is mounted at its first opening, already open.
    view.rerender(
      <Page>
        <SystemErrorDialog opened onClose={() => {}} />
      </Page>,
    );
    const dialog = await screen.findByTestId('system-error-dialog');
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    view.rerender(
      <Page>
        <SystemErrorDialog opened={false} onClose={() => {}} />
      </Page>,
    );
    await waitFor(() => expect(document.activeElement).toBe(opener()));
  });
});
