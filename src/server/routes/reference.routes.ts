import { Hono } from 'hono';
import {
  companyInfoEndpoint,
  countriesEndpoint,
  countryCodesEndpoint,
  relationshipsEndpoint,
  travelConfigsEndpoint,
  vatEndpoint,
} from '../../contract/reference.endpoints';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import { endpointHandler } from '../http/endpoint-handler';
import { fail } from '../http/respond';
import {
  UnknownReferenceError,
  companyInformation,
  listCountries,
  listCountryCodes,
  relationshipLists,
  travelConfigs,
  vatAndStampFee,
} from './reference.handlers';

/** Reference data endpoints of spec §7. */
export function referenceRoutes(db: Db) {
  const app = new Hono<AppEnv>();
  app.post(
    countriesEndpoint.path,
    endpointHandler(countriesEndpoint, async (input, c) => {
      try {
        return await listCountries(db, input);
      } catch (error) {
        if (error instanceof UnknownReferenceError) return fail(c, 422, 'invalid_request', { errors: { [error.field]: 'not_found' } });
        throw error;
      }
    }),
  );
  app.post(countryCodesEndpoint.path, endpointHandler(countryCodesEndpoint, (input) => listCountryCodes(db, input)));
  app.post(travelConfigsEndpoint.path, endpointHandler(travelConfigsEndpoint, (input) => travelConfigs(db, input)));
  app.post(relationshipsEndpoint.path, endpointHandler(relationshipsEndpoint, (input) => relationshipLists(db, input)));
  app.post(vatEndpoint.path, endpointHandler(vatEndpoint, () => vatAndStampFee(db)));
  app.post(companyInfoEndpoint.path, endpointHandler(companyInfoEndpoint, (input) => companyInformation(db, input)));
  return app;
}
