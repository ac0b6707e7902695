import { useEffect } from 'react';
import type { ReviewDrafts } from '../../../../machines/review/review.types';
import { dropReloadDraft, keepDraftForReload } from '../../storage/reload-draft';
import { REVIEW_FIELDS, type ReviewTravellerValues } from '../../../contract/traveller-review.rules';

const NUMBER_FIELDS = new Set(['type', 'gender_id', 'country_id', 'nationality_id', 'relationship_type_id']);

/** One traveller's form values, checked field by field: a draft is data read back from storage. */
function isReviewValues(value: unknown): value is ReviewTravellerValues {
  if (typeof value !== 'object' || value === null) return false;
  const values = value as Record<string, unknown>;
  return REVIEW_FIELDS.every((field) => {
    const item = values[field];
    return item === null || typeof item === (NUMBER_FIELDS.has(field) ? 'number' : 'string');
  });
}

/** Unsaved traveller forms by traveller id, as the language switch stored them before its reload. */
export function isReviewDrafts(value: unknown): value is ReviewDrafts {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.entries(value).every(([id, values]) => /^\d+$/.test(id) && isReviewValues(values));
}

/**
 * What the language switch keeps of the review (issue 17): every traveller's unsaved draft, and
 * the open form's values as they are now, under its traveller's id.
 */
export function reviewReloadDraft(drafts: ReviewDrafts, open: { id: number; values: ReviewTravellerValues } | null): ReviewDrafts {
  return open ? { ...drafts, [open.id]: open.values } : drafts;
}

/**
 * A reload (F5, pull to refresh) keeps the review's unsaved typing as the language switch does
 * (issue 38): the registered draft is stored as the page goes, in this tab's sessionStorage, and
 * taken back by the review after the reload (use-review-step.ts). A page that comes back from the
 * back-forward cache still holds its typing, so the draft stored as it went is dropped.
 */
export function useDraftKeptOnReload(): void {
  useEffect(() => {
    const keep = () => keepDraftForReload();
    const drop = (event: PageTransitionEvent) => {
      if (event.persisted) dropReloadDraft();
    };
    window.addEventListener('pagehide', keep);
    window.addEventListener('pageshow', drop);
    return () => {
      window.removeEventListener('pagehide', keep);
      window.removeEventListener('pageshow', drop);
    };
  }, []);
}
