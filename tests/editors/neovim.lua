-- A real client for `blades lsp`: headless Neovim (Debian's 0.7 and later)
-- opens a set file with a typo, waits for the server's diagnostic, asks for
-- its quick fix, applies it and saves. tests/editors/neovim.sh runs it and
-- then builds the pool, which must build clean.
-- Environment: BLADES (the binary), SET_FILE (the file to open).
local function fail(message)
  io.stderr:write('neovim.lua: ' .. message .. '\n')
  vim.cmd('cquit 1')
end

local blades = os.getenv('BLADES')
local file = os.getenv('SET_FILE')
if not blades or not file then
  fail('BLADES and SET_FILE must be set')
end
vim.cmd('edit ' .. vim.fn.fnameescape(file))
local bufnr = vim.api.nvim_get_current_buf()
local client_id = vim.lsp.start_client({
  name = 'blades',
  cmd = { blades, 'lsp' },
  root_dir = vim.fn.fnamemodify(file, ':p:h'),
})
if not client_id then
  fail('the server did not start')
end
vim.lsp.buf_attach_client(bufnr, client_id)

local published = vim.wait(30000, function()
  return #vim.diagnostic.get(bufnr) > 0
end, 100)
if not published then
  fail('no diagnostic was published for ' .. file)
end
local first = vim.diagnostic.get(bufnr)[1]
io.stdout:write('diagnostic: ' .. first.message .. '\n')

-- The diagnostics as the server sent them (with their fix in `data`).
local line_diagnostics = vim.lsp.diagnostic.get_line_diagnostics(bufnr, first.lnum)
local params = {
  textDocument = { uri = vim.uri_from_bufnr(bufnr) },
  range = {
    start = { line = first.lnum, character = first.col },
    ['end'] = { line = first.end_lnum, character = first.end_col },
  },
  context = { diagnostics = line_diagnostics, only = { 'quickfix' } },
}
local responses = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', params, 30000)
local action
for _, response in pairs(responses or {}) do
  for _, candidate in ipairs(response.result or {}) do
    if candidate.edit and not action then
      action = candidate
    end
  end
end
if not action then
  fail('no quick fix was offered for: ' .. first.message)
end
io.stdout:write('quick fix: ' .. action.title .. '\n')
local client = vim.lsp.get_client_by_id(client_id)
vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
vim.cmd('write')
vim.lsp.stop_client(client_id)
vim.cmd('qall!')
