-- Issue 37 item 4: the code an embassy checks on /verify/<code>, drawn by the database for every policy (old ones too).
ALTER TABLE "policies" ADD COLUMN "verify_code" text DEFAULT upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 16)) NOT NULL;--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_verify_code_unique" UNIQUE("verify_code");