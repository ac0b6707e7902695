CREATE TABLE "payment_notices" (
	"id" serial PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"merchant_reference" text,
	"fort_id" text,
	"order_id" integer,
	"payload" jsonb NOT NULL,
	"verdict" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_results" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"merchant_reference" text NOT NULL,
	"fort_id" text NOT NULL,
	"status" text NOT NULL,
	"response_code" text NOT NULL,
	"response_message" text NOT NULL,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "policies" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"lead_id" integer NOT NULL,
	"policy_number" text NOT NULL,
	"download_token" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"mailed_at" timestamp with time zone,
	CONSTRAINT "policies_order_id_unique" UNIQUE("order_id"),
	CONSTRAINT "policies_policy_number_unique" UNIQUE("policy_number"),
	CONSTRAINT "policies_download_token_unique" UNIQUE("download_token")
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_status_check";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "fort_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "response_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "response_message" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_notices" ADD CONSTRAINT "payment_notices_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_results" ADD CONSTRAINT "payment_results_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_notices_reference_idx" ON "payment_notices" USING btree ("merchant_reference");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_results_reference_fort_id_idx" ON "payment_results" USING btree ("merchant_reference","fort_id");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_check" CHECK ("orders"."status" in ('pending', 'paid', 'failed'));