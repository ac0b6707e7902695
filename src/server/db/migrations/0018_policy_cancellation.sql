-- Issue 36 item 5 (RULINGS 29): the broker cancels a policy that has not started; its premium is
-- refunded through the gateway less the plan's cancellation fee ($10 a policy for every seeded
-- plan), and its certificate says CANCELLED.
ALTER TABLE "refunds" DROP CONSTRAINT "refunds_reason_check";--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "cancellation_fee_cents" integer DEFAULT 1000 NOT NULL;--> statement-breakpoint
ALTER TABLE "policies" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "policies" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "policies" ADD COLUMN "cancel_note" text;--> statement-breakpoint
ALTER TABLE "policies" ADD COLUMN "cancelled_by" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_reason_check" CHECK ("refunds"."reason" in ('paid_twice', 'order_void', 'coupon_used_up', 'charged_again', 'policy_cancelled'));