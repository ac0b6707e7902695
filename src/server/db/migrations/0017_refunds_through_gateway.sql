-- Issue 36 item 4: refunds through the gateway. A refunds row is requested, then refunded or
-- refused by the gateway's answer to its APS REFUND (orders/refunds.ts), and an order whose
-- refund went through is 'refunded'. The embedded sandbox keeps its captures and the REFUNDs it
-- answered; the captures of sessions still kept are filled in from their answers.
CREATE TABLE "aps_sandbox_captures" (
	"fort_id" text PRIMARY KEY NOT NULL,
	"merchant_reference" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"refunded_cents" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "aps_sandbox_refunds" (
	"maintenance_reference" text PRIMARY KEY NOT NULL,
	"fort_id" text NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_status_check";--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "status" text DEFAULT 'due' NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "refund_cents" integer;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "maintenance_reference" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "requested_by" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "answered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "response_code" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "response_message" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_maintenance_reference_unique" UNIQUE("maintenance_reference");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_check" CHECK ("orders"."status" in ('pending', 'paid', 'failed', 'void', 'refund', 'refunded'));--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_status_check" CHECK ("refunds"."status" in ('due', 'requested', 'refunded', 'refused'));--> statement-breakpoint
INSERT INTO "aps_sandbox_captures" ("fort_id", "merchant_reference", "amount_cents", "currency", "created_at")
SELECT "response"->>'fort_id', "response"->>'merchant_reference', ("response"->>'amount')::integer, "response"->>'currency', coalesce("answered_at", "created_at")
FROM "aps_sandbox_sessions"
WHERE "response"->>'status' = '14' AND "response"->>'fort_id' IS NOT NULL AND "response"->>'amount' ~ '^[0-9]{1,9}$'
ON CONFLICT DO NOTHING;