import type { Db } from '../db/client';
import { saveTravellerInfo, type SaveTravellerInput } from '../review/save-traveller';

/** save-traveller-info: one traveller of the review step, on the app's clock (its "today"). */
export function saveTravellerHandler(db: Db, input: SaveTravellerInput, now: number) {
  return saveTravellerInfo(db, input, now);
}
