CREATE TABLE "bot_tokens_used" (
	"signature" text PRIMARY KEY NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "call_backs" (
	"id" serial PRIMARY KEY NOT NULL,
	"lead_id" integer,
	"reason" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"complete_phone_number" text NOT NULL,
	"lang" text NOT NULL,
	"agent_id" integer,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"lead_id" integer NOT NULL,
	"quote_id" integer NOT NULL,
	"quote_ref_no" text NOT NULL,
	"insurer_id" integer NOT NULL,
	"plan_id" integer NOT NULL,
	"plan_price_cents" integer NOT NULL,
	"addons" jsonb NOT NULL,
	"total_without_vat_cents" integer NOT NULL,
	"vat_percent" integer NOT NULL,
	"vat_cents" integer NOT NULL,
	"stamp_fee_cents" integer NOT NULL,
	"total_with_vat_cents" integer NOT NULL,
	"client_premium_mismatch" jsonb,
	"agent_id" integer,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_lead_id_unique" UNIQUE("lead_id"),
	CONSTRAINT "invoices_quote_ref_no_unique" UNIQUE("quote_ref_no")
);
--> statement-breakpoint
CREATE TABLE "lead_quotes" (
	"id" serial PRIMARY KEY NOT NULL,
	"lead_id" integer NOT NULL,
	"plan_id" integer NOT NULL,
	"insurer_id" integer NOT NULL,
	"zone" text NOT NULL,
	"premium_cents" integer NOT NULL,
	"per_person" jsonb NOT NULL,
	"addons" jsonb NOT NULL,
	"superseded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"lead_id" integer,
	"kind" text NOT NULL,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"file" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plan_addons" (
	"id" integer PRIMARY KEY NOT NULL,
	"plan_id" integer NOT NULL,
	"code" text NOT NULL,
	"label_en" text NOT NULL,
	"label_ar" text NOT NULL,
	"per_traveller_cents" integer,
	"premium_share_bp" integer,
	"max_age" integer,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plan_features" (
	"id" serial PRIMARY KEY NOT NULL,
	"plan_id" integer NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"section" integer DEFAULT 0 NOT NULL,
	"label_en" text NOT NULL,
	"label_ar" text NOT NULL,
	"value_en" text NOT NULL,
	"value_ar" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plan_rates" (
	"id" serial PRIMARY KEY NOT NULL,
	"plan_id" integer NOT NULL,
	"zone" text NOT NULL,
	"min_age" integer NOT NULL,
	"max_age" integer NOT NULL,
	"min_days" integer NOT NULL,
	"max_days" integer NOT NULL,
	"premium_cents" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" integer PRIMARY KEY NOT NULL,
	"insurer_id" integer NOT NULL,
	"coverage_id" integer NOT NULL,
	"name_en" text NOT NULL,
	"name_ar" text NOT NULL,
	"coverage_name_en" text NOT NULL,
	"coverage_name_ar" text NOT NULL,
	"trip_type" integer NOT NULL,
	"min_age" integer NOT NULL,
	"max_age" integer NOT NULL,
	"max_trip_days" integer NOT NULL,
	"excluded_destination_ids" integer[] DEFAULT '{}' NOT NULL,
	"family_factor_pct" integer,
	"medical_limit_usd" integer NOT NULL,
	"schengen_visa_compliant" boolean DEFAULT false NOT NULL,
	"is_instant_policy" boolean DEFAULT true NOT NULL,
	"is_api_plan" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
ALTER TABLE "insurers" ADD COLUMN "quote_adapter" text DEFAULT 'catalogue' NOT NULL;--> statement-breakpoint
ALTER TABLE "call_backs" ADD CONSTRAINT "call_backs_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_backs" ADD CONSTRAINT "call_backs_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_quote_id_lead_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."lead_quotes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_insurer_id_insurers_id_fk" FOREIGN KEY ("insurer_id") REFERENCES "public"."insurers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_quotes" ADD CONSTRAINT "lead_quotes_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_quotes" ADD CONSTRAINT "lead_quotes_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_quotes" ADD CONSTRAINT "lead_quotes_insurer_id_insurers_id_fk" FOREIGN KEY ("insurer_id") REFERENCES "public"."insurers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_log" ADD CONSTRAINT "mail_log_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_addons" ADD CONSTRAINT "plan_addons_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_features" ADD CONSTRAINT "plan_features_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_rates" ADD CONSTRAINT "plan_rates_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_insurer_id_insurers_id_fk" FOREIGN KEY ("insurer_id") REFERENCES "public"."insurers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bot_tokens_used_used_at_idx" ON "bot_tokens_used" USING btree ("used_at");--> statement-breakpoint
CREATE INDEX "call_backs_created_at_idx" ON "call_backs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "lead_quotes_lead_id_idx" ON "lead_quotes" USING btree ("lead_id");--> statement-breakpoint
CREATE INDEX "plan_addons_plan_id_idx" ON "plan_addons" USING btree ("plan_id");--> statement-breakpoint
CREATE INDEX "plan_features_plan_id_idx" ON "plan_features" USING btree ("plan_id");--> statement-breakpoint
CREATE INDEX "plan_rates_plan_id_idx" ON "plan_rates" USING btree ("plan_id");--> statement-breakpoint
CREATE INDEX "plans_insurer_id_idx" ON "plans" USING btree ("insurer_id");