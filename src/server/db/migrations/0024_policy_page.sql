CREATE TABLE "cancellation_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"policy_id" integer NOT NULL,
	"reason" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"handled_at" timestamp with time zone,
	"handled_by" text,
	CONSTRAINT "cancellation_requests_policy_id_unique" UNIQUE("policy_id")
);
--> statement-breakpoint
ALTER TABLE "insurers" ADD COLUMN "assistance_phone" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "plan_addons" ADD COLUMN "limit_usd" integer;--> statement-breakpoint
ALTER TABLE "policies" ADD COLUMN "page_token" text DEFAULT replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '') NOT NULL;--> statement-breakpoint
ALTER TABLE "cancellation_requests" ADD CONSTRAINT "cancellation_requests_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_page_token_unique" UNIQUE("page_token");--> statement-breakpoint
-- The demo insurers' assistance lines and the demo add-ons' limits, for a database seeded before this migration (the seed writes only new rows).
UPDATE "insurers" SET "assistance_phone" = CASE "id" WHEN 7 THEN '+961 1 555 701' WHEN 3 THEN '+961 1 555 703' WHEN 1000 THEN '+961 9 555 710' WHEN 12 THEN '+961 1 555 712' WHEN 15 THEN '+961 6 555 715' WHEN 21 THEN '+961 7 555 721' END WHERE "assistance_phone" = '' AND "id" IN (7, 3, 1000, 12, 15, 21) AND "name_en" LIKE '%(demo)';--> statement-breakpoint
UPDATE "plan_addons" SET "limit_usd" = CASE "code" WHEN 'winter_sports' THEN 10000 WHEN 'trip_cancellation' THEN 5000 WHEN 'adventure_sports' THEN 15000 WHEN 'rental_car_excess' THEN 3000 END WHERE "limit_usd" IS NULL AND "code" IN ('winter_sports', 'trip_cancellation', 'adventure_sports', 'rental_car_excess');
