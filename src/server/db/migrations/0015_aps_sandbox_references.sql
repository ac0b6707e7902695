-- Issue 33 item 3: the merchant references the embedded APS sandbox accepted a PURCHASE for; a
-- second PURCHASE with one of them is refused (00007 Duplicate order number), as APS refuses it.
CREATE TABLE "aps_sandbox_references" (
	"merchant_reference" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
