import { Hono, type Context } from 'hono';
import type * as v from 'valibot';
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
import { cachedJson, sendCachedJson } from '../http/cached-json';
import { endpointHandler } from '../http/endpoint-handler';
import { message } from '../http/messages';
import { fail } from '../http/respond';
import type { ReferenceData } from '../reference/reference-data';
import {
  UnknownReferenceError,
  companyInformation,
  listCountries,
  listCountryCodes,
  loadReferenceTables,
  relationshipLists,
  travelConfigs,
  vatAndStampFee,
  type ReferenceTables,
} from './reference.handlers';

/**
 * Reference data endpoints of spec §7, answered from memory: each language and body variant is
 * worked out, serialised, gzipped and tagged once per version of the data (reference-data.ts),
 * then sent with its ETag, or as 304 to a caller that already holds it.
 */
export function referenceRoutes(db: Db, reference: ReferenceData) {
  const app = new Hono<AppEnv>();
  const tables = () => reference.get('reference-tables', () => loadReferenceTables(db));
  const answer = async <I>(c: Context<AppEnv>, input: I, build: (tables: ReferenceTables, input: I) => unknown) => {
    const lang = c.get('lang');
    const key = `${c.req.path} ${lang} ${JSON.stringify(input ?? null)}`;
    const cached = await reference.get(key, async () => cachedJson({ status: 200, message: message('ok', lang), data: build(await tables(), input) }));
    return sendCachedJson(c, cached);
  };
  const route = <TReq extends v.GenericSchema, TData extends v.GenericSchema>(
    endpoint: Parameters<typeof endpointHandler<TReq, TData>>[0],
    build: (tables: ReferenceTables, input: v.InferOutput<TReq>) => unknown,
  ) => app.post(endpoint.path, endpointHandler(endpoint, (input, c) => answer(c, input, build)));

  app.post(
    countriesEndpoint.path,
    endpointHandler(countriesEndpoint, async (input, c) => {
      try {
        return await answer(c, input, listCountries);
      } catch (error) {
        if (error instanceof UnknownReferenceError) return fail(c, 422, 'invalid_request', { errors: { [error.field]: 'not_found' } });
        throw error;
      }
    }),
  );
  route(countryCodesEndpoint, listCountryCodes);
  route(travelConfigsEndpoint, travelConfigs);
  route(relationshipsEndpoint, relationshipLists);
  route(vatEndpoint, (data) => vatAndStampFee(data));
  route(companyInfoEndpoint, companyInformation);
  return app;
}
