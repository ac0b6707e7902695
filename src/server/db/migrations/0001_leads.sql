CREATE TABLE "customers" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone_country_code" text NOT NULL,
	"phone_number" text NOT NULL,
	"complete_phone_number" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customers_email_unique" UNIQUE("email"),
	CONSTRAINT "customers_complete_phone_number_unique" UNIQUE("complete_phone_number")
);
--> statement-breakpoint
CREATE TABLE "lead_trackers" (
	"id" serial PRIMARY KEY NOT NULL,
	"lead_id" integer NOT NULL,
	"uuid_lead" text NOT NULL,
	"device_uuid" text NOT NULL,
	"stage" integer DEFAULT 1 NOT NULL,
	"insurance_provider_id" integer,
	"plan_id" integer,
	"plan_ref_id" text,
	"status" integer DEFAULT 0 NOT NULL,
	"last_visit" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lead_travellers" (
	"id" serial PRIMARY KEY NOT NULL,
	"lead_id" integer NOT NULL,
	"position" integer NOT NULL,
	"first_name" text,
	"middle_name" text,
	"last_name" text,
	"dob" date NOT NULL,
	"relationship_type_id" integer,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "leads" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" text NOT NULL,
	"customer_id" integer NOT NULL,
	"device_uuid" text NOT NULL,
	"session_id" text NOT NULL,
	"agent_id" integer,
	"lang" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone_country_code" text NOT NULL,
	"phone_number" text NOT NULL,
	"complete_phone_number" text NOT NULL,
	"inbound_outbound" boolean NOT NULL,
	"trip_type" integer NOT NULL,
	"product_type" integer NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"no_of_days" integer NOT NULL,
	"destination_ids" integer[] NOT NULL,
	"source_id" integer NOT NULL,
	"no_of_traveller" integer NOT NULL,
	"is_family" boolean NOT NULL,
	"utm_source" text,
	"utm_medium" text,
	"utm_campaign" text,
	"utm_content" text,
	"status" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "leads_uuid_unique" UNIQUE("uuid")
);
--> statement-breakpoint
ALTER TABLE "lead_trackers" ADD CONSTRAINT "lead_trackers_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_trackers" ADD CONSTRAINT "lead_trackers_insurance_provider_id_insurers_id_fk" FOREIGN KEY ("insurance_provider_id") REFERENCES "public"."insurers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_travellers" ADD CONSTRAINT "lead_travellers_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_source_id_countries_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."countries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lead_trackers_lead_id_idx" ON "lead_trackers" USING btree ("lead_id");--> statement-breakpoint
CREATE INDEX "lead_trackers_device_uuid_idx" ON "lead_trackers" USING btree ("device_uuid");--> statement-breakpoint
CREATE INDEX "lead_travellers_lead_id_idx" ON "lead_travellers" USING btree ("lead_id");--> statement-breakpoint
CREATE INDEX "leads_device_uuid_idx" ON "leads" USING btree ("device_uuid");--> statement-breakpoint
CREATE INDEX "leads_customer_id_idx" ON "leads" USING btree ("customer_id");