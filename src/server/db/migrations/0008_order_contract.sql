ALTER TABLE "orders" DROP CONSTRAINT "orders_status_check";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "contract" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "purchase_fields" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "voided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "void_reason" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refund_reason" text;--> statement-breakpoint
CREATE INDEX "orders_coupon_id_idx" ON "orders" USING btree ("coupon_id");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_check" CHECK ("orders"."status" in ('pending', 'paid', 'failed', 'void', 'refund'));--> statement-breakpoint
-- Orders still waiting for the gateway were placed without a contract or the fields sent for
-- them: they can no longer be paid (a new checkout places a contracted order).
UPDATE "orders" SET "status" = 'void', "voided_at" = now(), "void_reason" = 'legacy' WHERE "status" = 'pending';
