"""The web inspector in a real browser (Debian's Chromium), against a live server over the real
databases: sign in, the worlds list, the town view live from the event stream, an agent's
memories, evidence, search, plan, conversations and relationships, usage charts, phone width.
Every page is photographed into test-artifacts/browser/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hearth_client import Hearth
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.scene import Scene

WAIT_MS = 10_000


@pytest.fixture
def page(browser: Browser, inspector_url: str) -> Iterator[Page]:
    context = browser.new_context(viewport=DESKTOP, base_url=inspector_url)
    context.set_default_timeout(WAIT_MS)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"


def sign_in(page: Page, key: str, *, accepted: bool = True) -> None:
    page.goto("/inspector")
    page.get_by_label("API key (admin or world)").fill(key)
    page.get_by_role("button", name="Sign in").click()
    if accepted:  # signed in and taken to the first page
        expect(page.locator("#nav .scope")).to_be_visible()
        expect(page.locator("main h1")).not_to_have_text("Sign in")


def shot(page: Page, artifacts: Path, name: str, *, full_page: bool = True) -> None:
    page.screenshot(path=str(artifacts / f"{name}.png"), full_page=full_page)


def agent_url(scene: Scene, agent: str, tab: str = "") -> str:
    return f"/inspector#/worlds/{scene.world_id}/agents/{agent}" + (f"/{tab}" if tab else "")


def test_a_wrong_key_is_refused(page: Page, artifacts: Path, scene: Scene) -> None:
    sign_in(page, "hk_world_not-a-key", accepted=False)
    expect(page.get_by_role("alert")).to_have_text(re.compile("refused"))
    assert page.evaluate("sessionStorage.length") == 0
    assert "hk_" not in page.url
    expect(page.get_by_label("API key (admin or world)")).to_be_focused()
    shot(page, artifacts, "signin-refused")


def test_admin_signs_in_lists_worlds_and_opens_the_town(
    page: Page, artifacts: Path, scene: Scene, admin_key: str
) -> None:
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    sign_in(page, admin_key)
    expect(page.get_by_role("heading", name="Worlds", level=1)).to_be_visible()
    shot(page, artifacts, "worlds")
    page.get_by_role("link", name="Larkspur").click()
    expect(page.get_by_role("heading", name="Larkspur", level=1)).to_be_visible()
    cafe = page.locator('[data-area="The Copper Kettle"]')
    expect(cafe.locator(f'[data-agent="{scene.junie}"]')).to_contain_text(
        "tell the customers about the party"
    )
    tomas = cafe.locator(f'[data-agent="{scene.tomas}"]')
    expect(tomas.locator("q.line")).to_have_text("Of course! I'm hanging the paper hearts at noon.")
    hiro = cafe.locator(f'[data-agent="{scene.agents["Hiro Tanaka"]}"]')
    expect(hiro).to_contain_text("listening to Tomas Ferreira")
    expect(page.locator(".live")).to_have_text("● live")
    shot(page, artifacts, "town")
    assert all(admin_key not in url for url in requests), "the key went into a URL"
    assert page.context.cookies() == []
    assert page.evaluate("JSON.parse(sessionStorage.getItem('hearth.inspector')).scope") == "admin"


def test_the_town_view_follows_a_step(
    page: Page, artifacts: Path, scene: Scene, inspector_url: str
) -> None:
    sign_in(page, scene.world_key)
    expect(page.get_by_role("heading", name="Larkspur", level=1)).to_be_visible()
    theo = scene.agents["Theo Calloway"]
    park = page.locator('[data-area="Willow Park"]')
    expect(park.locator(f'[data-agent="{theo}"]')).to_contain_text("feed the ducks")
    expect(page.locator(".live")).to_have_text("● live")
    with Hearth(inspector_url, api_key=scene.world_key) as game:
        game.step(scene.world_id, [{"agent_id": theo, "place": "Town Square: fountain"}])
    square = page.locator('[data-area="Town Square"]')
    expect(square.locator(f'[data-agent="{theo}"]')).to_be_visible()
    expect(park.locator(f'[data-agent="{theo}"]')).to_have_count(0)
    expect(page.locator("ol.events")).to_contain_text("Theo Calloway → Town Square: fountain")
    shot(page, artifacts, "town-after-step")
    shot(page, artifacts, "readme-town", full_page=False)


def test_the_clock_advances_a_driven_world(page: Page, scene: Scene, inspector_url: str) -> None:
    sign_in(page, scene.world_key)
    clock = page.locator(".clock .now")
    expect(clock).to_contain_text("09:35")
    page.get_by_label("Minutes").fill("10")
    page.get_by_role("button", name="Advance").click()
    expect(clock).to_contain_text("09:45")
    junie = page.locator(f'[data-agent="{scene.junie}"]')
    expect(junie).to_contain_text("restock the pastry case")  # the 9:45 task is now current
    with Hearth(inspector_url, api_key=scene.world_key) as game:
        game.set_clock(scene.world_id, "2023-02-14T09:35:00", rewind=True)  # the next test's time


def test_agent_page_memories_and_evidence_level_by_level(
    page: Page, artifacts: Path, scene: Scene
) -> None:
    sign_in(page, scene.world_key)
    page.goto(agent_url(scene, scene.junie))
    expect(page.get_by_role("heading", name=re.compile("Junie Halvorsen"), level=1)).to_be_visible()
    expect(page.locator("#current-action")).to_have_text("tell the customers about the party")
    expect(page.locator(".currently")).to_contain_text("Valentine's Day party")
    expect(page.locator("table.memories tbody tr").first).to_be_visible()
    shot(page, artifacts, "agent")
    shot(page, artifacts, "readme-agent", full_page=False)
    page.get_by_label("reflection").check()
    page.get_by_role("button", name="Filter").click()
    rows = page.locator("table.memories tbody tr")
    expect(rows).to_have_count(2)
    deep = page.locator(f'tr[data-memory="{scene.deep_reflection}"]')
    deep.get_by_role("button", name="Show evidence").click()
    level1 = deep.locator('ol.evidence[aria-label="Evidence, level 1"]')
    expect(level1.locator(":scope > li")).to_have_count(2)
    expect(level1).to_contain_text("Felix Moreau asked Junie quietly")
    level2 = deep.locator('ol.evidence[aria-label="Evidence, level 2"]')
    expect(level2).to_be_hidden()
    deep.get_by_text("Level 2: what this cites (3)").click()
    expect(level2.locator(":scope > li")).to_have_count(3)
    expect(level2).to_contain_text("Hiro Tanaka asked whether the party has music")
    shot(page, artifacts, "agent-evidence")
    page.get_by_label("reflection").uncheck()
    page.get_by_label("Text contains").fill("ESPRESSO")
    page.get_by_role("button", name="Filter").click()
    # the two morning memories and the seed memory of her relationship with Tomas, newest first
    expect(rows).to_have_count(3)
    for row in range(3):
        expect(rows.nth(row)).to_contain_text(re.compile("espresso", re.IGNORECASE))
    expect(rows.nth(1)).to_contain_text("the espresso machine is brewing")


def test_search_explains_each_score(
    page: Page, artifacts: Path, scene: Scene, inspector_url: str
) -> None:
    sign_in(page, scene.world_key)
    page.goto(agent_url(scene, scene.junie, "search"))
    page.get_by_label("Query", exact=True).fill("who is coming to the party")
    page.get_by_role("button", name="Search", exact=True).click()
    rows = page.locator("table.search-results tbody tr")
    expect(rows.first).to_be_visible()
    with Hearth(inspector_url, api_key=scene.world_key) as client:
        answer: Any = client.search_memories(
            scene.world_id, scene.junie, "who is coming to the party", k=10, touch=False
        )
    best = answer["results"][0]
    assert rows.count() == len(answer["results"])
    first = rows.first
    expect(first).to_contain_text(best["description"])
    cells = first.locator("td")
    for column, part in ((2, "recency"), (3, "importance"), (4, "relevance")):
        expect(cells.nth(column).locator("strong")).to_have_text(
            f"{best['components'][part]['normalized']:.3f}"
        )
    expect(cells.nth(5).locator("strong")).to_have_text(f"{best['score']:.3f}")
    expect(first.locator(".explain")).to_contain_text(f"= {best['score']:.3f}")
    expect(page.locator(".legend")).to_contain_text("does not update last access")
    shot(page, artifacts, "agent-search")


def test_plan_timeline_marks_superseded_items(page: Page, artifacts: Path, scene: Scene) -> None:
    sign_in(page, scene.world_key)
    page.goto(agent_url(scene, scene.junie, "plan"))
    superseded = page.locator(f'li[data-plan="{scene.plan["superseded"]}"]')
    expect(superseded).to_have_class(re.compile("status-superseded"))
    expect(superseded.locator("del")).to_have_text("work the afternoon shift")
    expect(superseded).to_contain_text(f"superseded by #{scene.plan['reaction']}")
    morning = page.locator(f'li[data-plan="{scene.plan["morning"]}"]')
    expect(morning.locator('li[data-level="hour"]')).to_have_count(4)
    expect(morning.locator('li[data-level="task"]')).to_have_count(4)
    current = page.locator("li.plan-item.current")
    expect(current).to_have_count(1)
    expect(current).to_contain_text("tell the customers about the party")
    expect(page.locator("svg.day-strip rect")).to_have_count(8)
    shot(page, artifacts, "agent-plan")
    page.get_by_label("Show superseded").uncheck()
    expect(superseded).to_have_count(0)


def test_conversations_and_relationships(page: Page, artifacts: Path, scene: Scene) -> None:
    sign_in(page, scene.world_key)
    page.goto(agent_url(scene, scene.junie, "conversations"))
    talks = page.locator("article.transcript")
    expect(talks).to_have_count(2)
    expect(talks.first.get_by_role("heading")).to_contain_text("With Felix Moreau")
    expect(talks.nth(1).locator("ol.lines li")).to_have_count(4)
    shot(page, artifacts, "agent-conversations")
    page.get_by_role("link", name="Relationships").click()
    tomas = page.locator('tr[data-other="Tomas Ferreira"]')
    expect(tomas).to_contain_text("8/10")
    expect(tomas).to_contain_text("helping with the party")
    tomas.get_by_text(re.compile(r"\d earlier")).click()
    expect(tomas).to_contain_text("her neighbour in apartment 2")
    expect(page.locator('tr[data-other="Walter Brigg"] td.sentiment')).to_have_class(
        re.compile("cold")
    )
    shot(page, artifacts, "agent-relationships")


def test_keyboard_alone_reaches_an_agent_and_its_plan(page: Page, scene: Scene) -> None:
    page.goto("/inspector")
    page.keyboard.press("Tab")  # the skip link comes first
    expect(page.get_by_role("link", name="Skip to content")).to_be_focused()
    page.get_by_label("API key (admin or world)").focus()
    page.keyboard.type(scene.world_key)
    page.keyboard.press("Enter")
    heading = page.locator("main h1")
    expect(heading).to_be_focused()  # the town is rendered: focus moves to its heading last
    junie = page.locator(f'[data-agent="{scene.junie}"] a')
    junie.focus()
    page.keyboard.press("Enter")
    expect(heading).to_contain_text("Junie Halvorsen")
    expect(heading).to_be_focused()  # her page, with its first section, is rendered
    plan_tab = page.get_by_role("link", name="Plan", exact=True)
    plan_tab.focus()
    page.keyboard.press("Enter")
    expect(page.locator("li.plan-item.current")).to_contain_text("tell the customers")
    expect(plan_tab).to_have_attribute("aria-current", "page")


def test_usage_charts(page: Page, artifacts: Path, scene: Scene) -> None:
    sign_in(page, scene.world_key)
    page.get_by_role("link", name="Usage", exact=True).click()
    expect(page.get_by_role("heading", name="Model usage · Larkspur")).to_be_visible()
    calls = page.get_by_role("img", name="Model calls per game-time bucket, by operation")
    expect(calls.locator("rect").first).to_be_visible()
    expect(page.get_by_role("img", name="Model calls by agent (top 12)")).to_be_visible()
    expect(page.locator(".totals")).to_contain_text("Model calls")
    shot(page, artifacts, "usage")
    page.get_by_label("Bucket", exact=True).select_option("15")
    expect(calls.locator("text.tick").first).to_be_visible()


def test_readable_at_a_phone_width(page: Page, artifacts: Path, scene: Scene) -> None:
    page.set_viewport_size(PHONE)
    sign_in(page, scene.world_key)
    expect(page.locator(f'[data-agent="{scene.junie}"]')).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, artifacts, "phone-town", full_page=False)
    page.goto(agent_url(scene, scene.junie, "plan"))
    expect(page.locator("li.plan-item.current")).to_be_visible()
    page.locator("li.plan-item.current").scroll_into_view_if_needed()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, artifacts, "phone-agent-plan", full_page=False)


def test_api_docs_render_with_the_network_closed(
    browser: Browser, inspector_url: str, artifacts: Path
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    outside: list[str] = []

    def only_this_server(route: Any) -> None:
        if route.request.url.startswith(inspector_url):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", only_this_server)
    page = context.new_page()
    page.goto(f"{inspector_url}/docs")
    step = page.locator(".opblock-summary-path", has_text="/v1/worlds/{world_id}/step")
    expect(step).to_be_visible(timeout=WAIT_MS)
    assert page.locator(".opblock").count() > 30
    shot(page, artifacts, "docs", full_page=False)
    page.goto(f"{inspector_url}/redoc")
    redoc = page.get_by_role("heading", name="Report many agents, get their actions")
    expect(redoc).to_be_visible(timeout=WAIT_MS)
    expect(page.get_by_role("menuitem", name="relationships")).to_be_visible()
    context.close()
    assert outside == [], f"the docs asked the internet for {outside}"
