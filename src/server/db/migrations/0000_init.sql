CREATE TABLE "agents" (
	"id" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "company_info" (
	"lang" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"whatsapp_number" text NOT NULL,
	"toll_free_number" text NOT NULL,
	"email" text NOT NULL,
	"address" text NOT NULL,
	"disclaimer" text NOT NULL,
	"social" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "countries" (
	"id" integer PRIMARY KEY NOT NULL,
	"iso2" text NOT NULL,
	"iso3" text NOT NULL,
	"name_en" text NOT NULL,
	"name_ar" text NOT NULL,
	"phone_code" text NOT NULL,
	CONSTRAINT "countries_iso2_unique" UNIQUE("iso2")
);
--> statement-breakpoint
CREATE TABLE "insurer_excluded_countries" (
	"insurer_id" integer NOT NULL,
	"country_id" integer NOT NULL,
	CONSTRAINT "insurer_excluded_countries_insurer_id_country_id_pk" PRIMARY KEY("insurer_id","country_id")
);
--> statement-breakpoint
CREATE TABLE "insurers" (
	"id" integer PRIMARY KEY NOT NULL,
	"name_en" text NOT NULL,
	"name_ar" text NOT NULL,
	"logo" text NOT NULL,
	"accepts_destination_nationals" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "master_items" (
	"kind" text NOT NULL,
	"id" integer NOT NULL,
	"name_en" text NOT NULL,
	"name_ar" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "master_items_kind_id_pk" PRIMARY KEY("kind","id")
);
--> statement-breakpoint
CREATE TABLE "relationships" (
	"group" text NOT NULL,
	"id" integer NOT NULL,
	"name_en" text NOT NULL,
	"name_ar" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "relationships_group_id_pk" PRIMARY KEY("group","id")
);
--> statement-breakpoint
CREATE TABLE "request_nonces" (
	"nonce" text NOT NULL,
	"signature" text NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "request_nonces_nonce_signature_pk" PRIMARY KEY("nonce","signature")
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "insurer_excluded_countries" ADD CONSTRAINT "insurer_excluded_countries_insurer_id_insurers_id_fk" FOREIGN KEY ("insurer_id") REFERENCES "public"."insurers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insurer_excluded_countries" ADD CONSTRAINT "insurer_excluded_countries_country_id_countries_id_fk" FOREIGN KEY ("country_id") REFERENCES "public"."countries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "request_nonces_seen_at_idx" ON "request_nonces" USING btree ("seen_at");