CREATE TABLE "refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"merchant_reference" text NOT NULL,
	"fort_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"reason" text NOT NULL,
	"notice_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refunds_reason_check" CHECK ("refunds"."reason" in ('paid_twice', 'order_void', 'coupon_used_up', 'charged_again'))
);
--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_notice_id_payment_notices_id_fk" FOREIGN KEY ("notice_id") REFERENCES "public"."payment_notices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_reference_fort_id_idx" ON "refunds" USING btree ("merchant_reference","fort_id");--> statement-breakpoint
CREATE INDEX "refunds_order_id_idx" ON "refunds" USING btree ("order_id");--> statement-breakpoint
-- Captures recorded before this table existed: each 'refund' order's own capture, with its
-- reason, and every further success applied to an order already paid or to be refunded (until
-- now only a payment_duplicate log line), so the list starts complete.
INSERT INTO "refunds" ("order_id", "merchant_reference", "fort_id", "amount_cents", "currency", "reason", "created_at")
SELECT "id", "merchant_reference", coalesce("fort_id", ''), "total_cents", "currency", coalesce("refund_reason", 'paid_twice'), coalesce("paid_at", "created_at")
FROM "orders" WHERE "status" = 'refund'
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "refunds" ("order_id", "merchant_reference", "fort_id", "amount_cents", "currency", "reason", "created_at")
SELECT o."id", r."merchant_reference", r."fort_id", o."total_cents", o."currency", 'charged_again', r."applied_at"
FROM "payment_results" r JOIN "orders" o ON o."id" = r."order_id"
WHERE r."status" = '14' AND o."status" IN ('paid', 'refund') AND r."fort_id" <> coalesce(o."fort_id", '')
ON CONFLICT DO NOTHING;
