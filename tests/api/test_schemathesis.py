"""schemathesis over the OpenAPI schema: generated requests, valid and invalid, never get a server error,
and every answer has a status and a body the schema declares."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (content_type_conformance,
                                               response_schema_conformance, status_code_conformance)

from leishen.api import Settings, create_app

APP = create_app(Settings())
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@pytest.fixture(scope="module", autouse=True)
def started():
    """Run the app's start-up (the backend opens there) around the generated calls."""
    from fastapi.testclient import TestClient

    with TestClient(APP):
        yield


@schema.parametrize()
@settings(max_examples=3, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_no_server_errors(case):
    case.call_and_validate(checks=[not_a_server_error, status_code_conformance, content_type_conformance,
                                   response_schema_conformance])
