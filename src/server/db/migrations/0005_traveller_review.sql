ALTER TABLE "lead_travellers" ADD COLUMN "title_id" integer;--> statement-breakpoint
ALTER TABLE "lead_travellers" ADD COLUMN "gender_id" integer;--> statement-breakpoint
ALTER TABLE "lead_travellers" ADD COLUMN "passport" text;--> statement-breakpoint
ALTER TABLE "lead_travellers" ADD COLUMN "country_id" integer;--> statement-breakpoint
ALTER TABLE "lead_travellers" ADD COLUMN "nationality_id" integer;--> statement-breakpoint
ALTER TABLE "lead_travellers" ADD COLUMN "marital_status_id" integer;--> statement-breakpoint
ALTER TABLE "lead_travellers" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "lead_travellers" ADD CONSTRAINT "lead_travellers_country_id_countries_id_fk" FOREIGN KEY ("country_id") REFERENCES "public"."countries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_travellers" ADD CONSTRAINT "lead_travellers_nationality_id_countries_id_fk" FOREIGN KEY ("nationality_id") REFERENCES "public"."countries"("id") ON DELETE no action ON UPDATE no action;