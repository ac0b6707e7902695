import type { Language } from '../../contract/endpoint';
import { paymentStatusEndpoint, type PaymentStatusData } from '../../contract/payment.endpoints';
import { callEndpoint } from './http-client';

/**
 * Reads an order's outcome (issue 11 payment-status): pending, paid with its policy and the
 * certificate's address, or failed with the reason. With a reference, that attempt of the lead;
 * without, the lead's paid order, else its latest. An unknown lead or order rejects with an
 * ApiError of status 404.
 */
export function fetchPaymentStatus(request: { uuid: string; reference: string | null; lang: Language }): Promise<PaymentStatusData> {
  return callEndpoint(paymentStatusEndpoint, { uuid: request.uuid, merchant_reference: request.reference, language: request.lang });
}
