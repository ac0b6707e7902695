import type { ReviewDrafts } from '../../../../machines/review/review.types';
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
