import { MantineProvider, Select } from '@mantine/core';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { theme } from '../theme/theme';
import { useListboxState } from './listbox-state';

afterEach(cleanup);

function Titles({ fixed }: { fixed: boolean }) {
  const listbox = useListboxState();
  return <Select label="Title" data={['Mr', 'Mrs', 'Ms']} {...(fixed ? listbox : {})} />;
}

const open = async (fixed: boolean) => {
  render(
    <MantineProvider theme={theme} env="test">
      <Titles fixed={fixed} />
    </MantineProvider>,
  );
  const select = screen.getByRole('combobox', { name: 'Title' });
  select.focus();
  fireEvent.keyDown(select, { key: 'ArrowDown', code: 'ArrowDown' });
  await screen.findByRole('listbox');
  return select;
};

// The theme mounts a list only when it opens (issue 19); the select must still say it is open.
describe('useListboxState (issue 21, WCAG 4.1.2)', () => {
  it('a select says it is open, and names a list, while its list shows; closed, it says so', async () => {
    const select = await open(true);
    await waitFor(() => expect(select.getAttribute('aria-expanded')).toBe('true'));
    // It names a list too. Vitest loads Mantine's useId unpatched, which swaps the list's id after
    // it mounts; the build keeps it (dependency-patches.plugin.ts), and Chromium checks the two match
    // (tests/e2e/focus-and-announcements.test.ts).
    expect(select.getAttribute('aria-controls')).toMatch(/^mantine-/);
    fireEvent.keyDown(select, { key: 'Escape', code: 'Escape' });
    await waitFor(() => expect(select.getAttribute('aria-expanded')).toBe('false'));
  });

  it('without it, Mantine says "collapsed" over the open list (the fault it mends)', async () => {
    const select = await open(false);
    expect(select.getAttribute('aria-expanded')).toBe('false');
  });
});
