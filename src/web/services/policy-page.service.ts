import type { Language } from '../../contract/endpoint';
import {
  policyCancellationEndpoint,
  policyPageEndpoint,
  policyResendEndpoint,
  type CancellationReason,
  type PolicyPage,
} from '../../contract/policy-page.endpoints';
import { callEndpoint } from './http-client';

/** The customer's policy page by its token (issue 37). An unknown token rejects with an ApiError of status 404. */
export async function fetchPolicyPage(token: string, lang: Language): Promise<PolicyPage> {
  return (await callEndpoint(policyPageEndpoint, { token, lang })).policy;
}

/** Sends the certificate again to the policy's e-mail; answers the masked address. Over the hourly limit: an ApiError of status 429. */
export async function resendPolicy(token: string, lang: Language): Promise<string> {
  return (await callEndpoint(policyResendEndpoint, { token, lang })).email;
}

/** Asks the broker to cancel the policy; answers the page as it now stands. Not allowed (started, asked already): an ApiError of status 409. */
export async function requestCancellation(token: string, reason: CancellationReason, note: string, lang: Language): Promise<PolicyPage> {
  return (await callEndpoint(policyCancellationEndpoint, { token, reason, note, lang })).policy;
}
