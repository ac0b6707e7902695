CREATE TABLE "coupons" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"discount_type" integer NOT NULL,
	"discount_value" integer NOT NULL,
	"valid_from" date NOT NULL,
	"valid_to" date NOT NULL,
	"usage_limit" integer,
	"used_count" integer DEFAULT 0 NOT NULL,
	"provider_id" integer,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coupons_code_unique" UNIQUE("code"),
	CONSTRAINT "coupons_discount_check" CHECK (("coupons"."discount_type" = 1 and "coupons"."discount_value" between 1 and 100) or ("coupons"."discount_type" = 2 and "coupons"."discount_value" > 0)),
	CONSTRAINT "coupons_dates_check" CHECK ("coupons"."valid_from" <= "coupons"."valid_to"),
	CONSTRAINT "coupons_usage_check" CHECK ("coupons"."used_count" >= 0 and ("coupons"."usage_limit" is null or "coupons"."usage_limit" >= 0))
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"lead_id" integer NOT NULL,
	"invoice_id" integer NOT NULL,
	"merchant_reference" text NOT NULL,
	"coupon_id" integer,
	"plan_cents" integer NOT NULL,
	"addons_cents" integer NOT NULL,
	"discount_cents" integer NOT NULL,
	"vat_cents" integer NOT NULL,
	"stamp_cents" integer NOT NULL,
	"total_cents" integer NOT NULL,
	"vat_percent" integer NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"lang" text NOT NULL,
	"agent_id" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"client_total_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "orders_merchant_reference_unique" UNIQUE("merchant_reference"),
	CONSTRAINT "orders_status_check" CHECK ("orders"."status" in ('pending', 'paid'))
);
--> statement-breakpoint
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_provider_id_insurers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."insurers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_lead_id_idx" ON "orders" USING btree ("lead_id");