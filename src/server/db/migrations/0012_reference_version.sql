CREATE TABLE "reference_version" (
	"id" integer PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
INSERT INTO "reference_version" ("id", "version") VALUES (1, 1) ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE FUNCTION "bump_reference_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "reference_version" SET "version" = "version" + 1 WHERE "id" = 1;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "settings_bump_reference_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "settings" FOR EACH STATEMENT EXECUTE FUNCTION "bump_reference_version"();--> statement-breakpoint
CREATE TRIGGER "countries_bump_reference_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "countries" FOR EACH STATEMENT EXECUTE FUNCTION "bump_reference_version"();--> statement-breakpoint
CREATE TRIGGER "master_items_bump_reference_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "master_items" FOR EACH STATEMENT EXECUTE FUNCTION "bump_reference_version"();--> statement-breakpoint
CREATE TRIGGER "relationships_bump_reference_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "relationships" FOR EACH STATEMENT EXECUTE FUNCTION "bump_reference_version"();--> statement-breakpoint
CREATE TRIGGER "company_info_bump_reference_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "company_info" FOR EACH STATEMENT EXECUTE FUNCTION "bump_reference_version"();--> statement-breakpoint
CREATE TRIGGER "insurers_bump_reference_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "insurers" FOR EACH STATEMENT EXECUTE FUNCTION "bump_reference_version"();--> statement-breakpoint
CREATE TRIGGER "insurer_excluded_countries_bump_reference_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "insurer_excluded_countries" FOR EACH STATEMENT EXECUTE FUNCTION "bump_reference_version"();--> statement-breakpoint
CREATE TRIGGER "plans_bump_reference_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "plans" FOR EACH STATEMENT EXECUTE FUNCTION "bump_reference_version"();--> statement-breakpoint
CREATE TRIGGER "plan_rates_bump_reference_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "plan_rates" FOR EACH STATEMENT EXECUTE FUNCTION "bump_reference_version"();--> statement-breakpoint
CREATE TRIGGER "plan_addons_bump_reference_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "plan_addons" FOR EACH STATEMENT EXECUTE FUNCTION "bump_reference_version"();--> statement-breakpoint
CREATE TRIGGER "plan_features_bump_reference_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "plan_features" FOR EACH STATEMENT EXECUTE FUNCTION "bump_reference_version"();--> statement-breakpoint
ALTER TABLE "request_nonces" SET UNLOGGED;
