"""Translate a SAM template to plain CloudFormation with samtranslator, the
library behind `sam deploy`'s transform, offline: the managed policy loader
is a stub that never calls IAM, and the session that would name the region
is a stub too (no boto session, no credentials, no network).

usage: python3 sam-translate.py TEMPLATE > translated.json
"""
import json
import os
import sys

from samtranslator.parser.parser import Parser
from samtranslator.translator.translator import Translator
from samtranslator.yaml_helper import yaml_parse


class OfflineManagedPolicyLoader:
    """Stands in for samtranslator's ManagedPolicyLoader (which lists IAM
    policies through boto3). planwarden's functions bring their own roles, so
    no managed policy name needs resolving; a name that did would fail the
    translation, which the test wants to see."""

    def load(self):
        return {}


class OfflineSession:
    """What the translator reads from a boto3 session: the region."""

    region_name = "us-east-1"


def package(template, base):
    """Do what `sam package` does before the transform: a local CodeUri must
    exist, and becomes the S3 object it would be uploaded to."""
    holders = [template.get("Globals", {}).get("Function", {})]
    holders += [r.get("Properties", {}) for r in template.get("Resources", {}).values() if r.get("Type") == "AWS::Serverless::Function"]
    for h in holders:
        uri = h.get("CodeUri")
        if isinstance(uri, str) and not uri.startswith("s3://"):
            path = os.path.join(base, uri)
            if not os.path.isdir(path):
                sys.exit("CodeUri %s: no such directory %s" % (uri, path))
            h["CodeUri"] = "s3://sam-artifacts-123456789012-us-east-1/planwarden/" + uri.strip("/").replace("/", "-") + ".zip"


def main():
    with open(sys.argv[1]) as f:
        template = yaml_parse(f.read())
    package(template, os.path.dirname(os.path.abspath(sys.argv[1])))
    params = {"GitHubAppId": "123456", "AWS::Region": "us-east-1", "AWS::AccountId": "123456789012", "AWS::Partition": "aws"}
    translator = Translator(None, Parser(), boto_session=OfflineSession())
    out = translator.translate(template, parameter_values=params, get_managed_policy_map=OfflineManagedPolicyLoader().load)
    json.dump(out, sys.stdout, indent=1, sort_keys=True, default=str)


if __name__ == "__main__":
    main()
