import { act, cleanup, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ANNOUNCE_DELAY_MS, AnnouncerProvider, useAnnounce, type Announce } from './announcer';

const grabbed: { announce: Announce } = { announce: () => {} };
const announce: Announce = (...args) => grabbed.announce(...args);
const said = () => screen.getByTestId('announcer').textContent;
const saidUrgently = () => screen.getByTestId('announcer-urgent').textContent;
function Grab() {
  const value = useAnnounce();
  useEffect(() => {
    grabbed.announce = value;
  }, [value]);
  return null;
}

// The clock is faked: the region's pause before each message is a timer.
describe('announcer (issue 21, WCAG 4.1.3), with a fake clock', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    render(
      <AnnouncerProvider>
        <Grab />
      </AnnouncerProvider>,
    );
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('keeps both live regions on the page, empty, before anything is said', () => {
    expect(screen.getByTestId('announcer').getAttribute('aria-live')).toBe('polite');
    expect(screen.getByTestId('announcer-urgent').getAttribute('aria-live')).toBe('assertive');
    expect(said()).toBe('');
  });

  it('writes a message into the polite region after emptying it, so the same words said twice are read twice', () => {
    act(() => announce('Coupon applied'));
    act(() => vi.advanceTimersByTime(ANNOUNCE_DELAY_MS));
    expect(said()).toBe('Coupon applied');
    act(() => announce('Coupon applied'));
    expect(said()).toBe('');
    act(() => vi.advanceTimersByTime(ANNOUNCE_DELAY_MS));
    expect(said()).toBe('Coupon applied');
  });

  it('says an urgent message in the assertive region and empties the polite one', () => {
    act(() => announce('Traveller saved'));
    act(() => vi.advanceTimersByTime(ANNOUNCE_DELAY_MS));
    act(() => announce('This coupon has expired', { urgent: true }));
    act(() => vi.advanceTimersByTime(ANNOUNCE_DELAY_MS));
    expect(saidUrgently()).toBe('This coupon has expired');
    expect(said()).toBe('');
  });

  it('says only the last of two quick messages', () => {
    act(() => announce('3 plans shown'));
    act(() => announce('2 plans shown'));
    act(() => vi.advanceTimersByTime(ANNOUNCE_DELAY_MS));
    expect(said()).toBe('2 plans shown');
  });
});
