import { fromPromise } from 'xstate';
import { paymentResultMachine } from '../../../../machines/payment-result/payment-result.machine';
import { fetchPaymentStatus } from '../../services/payment.service';
import { localStore } from '../../storage/local-store';
import { storeTripFinished } from '../../storage/finished-trip';

/** The payment result machine with its call and its storage write. */
export const paymentResultLogic = paymentResultMachine.provide({
  actors: {
    loadStatus: fromPromise(({ input }) => fetchPaymentStatus(input)),
  },
  actions: {
    // Spec §4: a paid order stores the thank-you flag, so checkout opened again (Back, a saved
    // link) starts a new quote instead of a second payment; the coupon is spent.
    storeThankYou: ({ context }) => {
      if (context.uuid) storeTripFinished(context.uuid);
      localStore.remove('coupon');
    },
  },
});
